/**
 * MUI's Tooltip, mounted when first needed. Until the pointer reaches its child, or the child is
 * focused or touched, the child renders alone, with the accessible name (or, with
 * `describeChild`, the title attribute) the Tooltip would give it. Then the Tooltip mounts beside
 * the child, which stays the same element (no remount: the focus, a press or a touch in progress
 * carry on), is handed the event that woke it and from then on every hover, focus and touch
 * event of the child: it opens (after its delay; on focus only when focus-visible; on touch after
 * a long press), anchors to the child and closes exactly as if it had always been there.
 *
 * Why: a mounted Tooltip costs a component tree (Tooltip, Popper, transition hooks) and sets its
 * state from its child's ref during React's commit. That update is synchronous: a screen with a
 * few dozen tooltips (a list's row actions, the header's buttons) re-rendered all of them, and ran
 * every passive effect, before the browser could paint the screen for the first time.
 */
import Tooltip, { type TooltipProps } from '@mui/material/Tooltip';
import {
  cloneElement,
  forwardRef,
  useLayoutEffect,
  useRef,
  useState,
  type ReactElement,
  type Ref,
  type RefObject,
  type SyntheticEvent,
} from 'react';

type Handler = (event: SyntheticEvent) => void;
const EVENTS = ['onMouseOver', 'onMouseLeave', 'onFocus', 'onBlur', 'onTouchStart', 'onTouchEnd'] as const;
type EventName = (typeof EVENTS)[number];
type Handlers = Partial<Record<EventName, Handler>>;
/** what the Tooltip puts on its child besides handlers and which the real child gets from the stand-in */
const ATTRIBUTES = ['aria-describedby', 'aria-labelledby', 'title', 'data-mui-internal-clone-element'] as const;

type StandInProps = Handlers &
  Partial<Record<(typeof ATTRIBUTES)[number], string | boolean | null>> & {
    target: HTMLElement;
    handlersRef: RefObject<Handlers>;
  };

function assignRef(ref: Ref<HTMLElement> | undefined, value: HTMLElement | null): void {
  if (typeof ref === 'function') ref(value);
  else if (ref) ref.current = value;
}

/**
 * The Tooltip's child: renders nothing, gives the Tooltip the real child as its node, and passes
 * the Tooltip's handlers and attributes on to the real child.
 */
const StandIn = forwardRef<HTMLElement, StandInProps>(function StandIn({ target, handlersRef, ...fromTooltip }, ref) {
  useLayoutEffect(() => {
    assignRef(ref, target);
    return () => assignRef(ref, null);
  }, [ref, target]);
  useLayoutEffect(() => {
    handlersRef.current = Object.fromEntries(EVENTS.map((name) => [name, fromTooltip[name]]));
    for (const attribute of ATTRIBUTES) {
      if (!(attribute in fromTooltip)) continue;
      const value = fromTooltip[attribute];
      if (value === null || value === undefined || value === false) target.removeAttribute(attribute);
      else target.setAttribute(attribute, String(value));
    }
  });
  return null;
});

interface ChildProps extends Handlers {
  'aria-label'?: string;
  title?: string;
}

export function LazyTooltip(props: TooltipProps) {
  const { children, title, describeChild, disableHoverListener } = props;
  const [woken, setWoken] = useState<{ event: SyntheticEvent; name: EventName; target: HTMLElement } | null>(null);
  const handlersRef = useRef<Handlers>({});
  // the Tooltip is in place (this commit): hand it the event it missed, as if on its own child
  useLayoutEffect(() => {
    if (!woken) return;
    const replay = Object.assign(Object.create(woken.event) as SyntheticEvent, { currentTarget: woken.target });
    handlersRef.current[woken.name]?.(replay);
  }, [woken]);

  const child = children as ReactElement<ChildProps>;
  const own = child.props;
  const on =
    (name: EventName): Handler =>
    (event) => {
      own[name]?.(event);
      if (woken) handlersRef.current[name]?.(event);
      else if (name === 'onMouseOver' || name === 'onFocus' || name === 'onTouchStart')
        setWoken({ event, name, target: event.currentTarget as HTMLElement });
    };
  // what the Tooltip gives its child while closed (the child's own props win)
  const named: ChildProps =
    typeof title !== 'string'
      ? {}
      : describeChild
        ? { title: own.title ?? (disableHoverListener ? undefined : title) }
        : { 'aria-label': own['aria-label'] ?? title };
  return (
    <>
      {cloneElement(child, { ...named, ...Object.fromEntries(EVENTS.map((name) => [name, on(name)])) })}
      {woken ? (
        <Tooltip {...props}>
          <StandIn target={woken.target} handlersRef={handlersRef} />
        </Tooltip>
      ) : null}
    </>
  );
}
