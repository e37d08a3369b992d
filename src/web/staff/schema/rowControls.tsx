/**
 * The controls every list row repeats (the status radios, the 操作 buttons) as plain elements
 * styled by one class set the list's grid carries (`rowControlsSx`), instead of a styled MUI
 * component per radio, button and icon: MUI's small Radio in a FormControlLabel is about 25
 * components (button base, switch base, two icons, typography, each with its style insertion),
 * an IconButton with its icon about 10, and a list's first rows repeat them dozens of times
 * before the first paint. They look like MUI's small Radio and small IconButton (sizes, colours
 * from the theme, hover, disabled) and are real radio inputs and buttons, so the keyboard
 * (Tab, arrow keys within a group, Space) and assistive technology treat them as before.
 * A keyboard focus shows a round tint like MUI's focus ripple, also when motion is reduced
 * (where MUI's ripple, and so any sign of focus, is off).
 */
import { alpha, keyframes, type Theme } from '@mui/material/styles';
import type { ComponentPropsWithoutRef, MouseEvent, ReactNode } from 'react';

/** Path data of MUI's icons (the others from @mui/icons-material), drawn in a 24×24 box. */
export const ICON_PATHS = {
  // the Radio's own icons (@mui/material's internal svg-icons): a ring, and the dot drawn over it
  radioUnchecked:
    'M12 2C6.48 2 2 6.48 2 12s4.48 10 10 10 10-4.48 10-10S17.52 2 12 2zm0 18c-4.42 0-8-3.58-8-8s3.58-8 8-8 8 3.58 8 8-3.58 8-8 8z',
  radioDot:
    'M8.465 8.465C9.37 7.56 10.62 7 12 7C14.76 7 17 9.24 17 12C17 13.38 16.44 14.63 15.535 15.535C14.63 16.44 13.38 17 12 17C9.24 17 7 14.76 7 12C7 10.62 7.56 9.37 8.465 8.465Z',
  visibility:
    'M12 4.5C7 4.5 2.73 7.61 1 12c1.73 4.39 6 7.5 11 7.5s9.27-3.11 11-7.5c-1.73-4.39-6-7.5-11-7.5M12 17c-2.76 0-5-2.24-5-5s2.24-5 5-5 5 2.24 5 5-2.24 5-5 5m0-8c-1.66 0-3 1.34-3 3s1.34 3 3 3 3-1.34 3-3-1.34-3-3-3',
  edit: 'M3 17.25V21h3.75L17.81 9.94l-3.75-3.75zM20.71 7.04c.39-.39.39-1.02 0-1.41l-2.34-2.34a.996.996 0 0 0-1.41 0l-1.83 1.83 3.75 3.75z',
  delete: 'M6 19c0 1.1.9 2 2 2h8c1.1 0 2-.9 2-2V7H6zM19 4h-3.5l-1-1h-5l-1 1H5v2h14z',
  history:
    'M13 3c-4.97 0-9 4.03-9 9H1l3.89 3.89.07.14L9 12H6c0-3.87 3.13-7 7-7s7 3.13 7 7-3.13 7-7 7c-1.93 0-3.68-.79-4.94-2.06l-1.42 1.42C8.27 19.99 10.51 21 13 21c4.97 0 9-4.03 9-9s-4.03-9-9-9m-1 5v5l4.28 2.54.72-1.21-3.5-2.08V8z',
} as const;

/** Class names the styles below select (one set for every row of the grid). */
export const ROW_CLASSES = {
  radios: 'RowRadios-root',
  radiosDisabled: 'RowRadios-disabled',
  option: 'RowRadios-option',
  control: 'RowRadios-control',
  icon: 'RowRadios-icon',
  text: 'RowRadios-text',
  action: 'RowAction-root',
  svg: 'RowControl-svg',
} as const;

export type RowActionColor = 'primary' | 'error' | 'default';

function Svg({ path }: { path: string }) {
  return (
    <svg className={ROW_CLASSES.svg} focusable="false" aria-hidden="true" viewBox="0 0 24 24">
      <path d={path} />
    </svg>
  );
}

export interface RowRadioOption {
  value: string;
  label: ReactNode;
}

/**
 * A row's radio group: `role="radiogroup"` named `label`, one native radio per option inside a
 * `<label>` with the option's text (the browser moves between the radios of one `name` with the
 * arrow keys and selects with Space). Clicks stay inside it (a row click does nothing to it).
 */
export function RowRadios({
  name,
  label,
  value,
  options,
  disabled,
  onChange,
}: {
  name: string;
  label: string;
  value: string;
  options: readonly RowRadioOption[];
  disabled: boolean;
  onChange: (value: string) => void;
}) {
  return (
    <div
      role="radiogroup"
      aria-label={label}
      className={disabled ? `${ROW_CLASSES.radios} ${ROW_CLASSES.radiosDisabled}` : ROW_CLASSES.radios}
      onClick={stopPropagation}
    >
      {options.map((o) => (
        <label key={o.value} className={ROW_CLASSES.option}>
          <span className={ROW_CLASSES.control}>
            <input
              type="radio"
              name={name}
              value={o.value}
              checked={o.value === value}
              disabled={disabled}
              onChange={(e) => onChange(e.target.value)}
            />
            <span className={ROW_CLASSES.icon}>
              <Svg path={ICON_PATHS.radioUnchecked} />
              <Svg path={ICON_PATHS.radioDot} />
            </span>
          </span>
          <span className={ROW_CLASSES.text}>{o.label}</span>
        </label>
      ))}
    </div>
  );
}

/**
 * A round icon button of the 操作 column (MUI's small IconButton with a small icon: 30 px).
 * Event handlers and attributes passed in (a LazyTooltip's) reach the button.
 */
export function RowActionButton({
  color,
  path,
  ...props
}: { color: RowActionColor; path: string; 'aria-label': string } & Omit<
  ComponentPropsWithoutRef<'button'>,
  'color' | 'className' | 'type'
>) {
  return (
    <button type="button" className={ROW_CLASSES.action} data-color={color} {...props}>
      <Svg path={path} />
    </button>
  );
}

function stopPropagation(event: MouseEvent) {
  event.stopPropagation();
}

/** MUI's focus ripple: a circle of the control's colour, 30 % opaque, 92 % of its size at rest. */
const focusTint = {
  content: '""',
  position: 'absolute',
  inset: '0',
  transform: 'scale(0.92)',
  borderRadius: '50%',
  backgroundColor: 'currentColor',
  opacity: 0.3,
  pointerEvents: 'none',
};

/** The focus ripple's slow breath while motion is welcome (MUI's TouchRipple pulsate). */
const pulsate = keyframes`
  0% { transform: scale(1); }
  50% { transform: scale(0.92); }
  100% { transform: scale(1); }
`;

/**
 * The styles of the row controls, for the `sx` of the grid holding the rows (plain strings with
 * units: `sx` would read bare numbers as spacing steps). Colours come from the theme: primary is
 * the user's chosen colour.
 */
export const rowControlsSx: Record<string, (theme: Theme) => Record<string, unknown>> = {
  [`& .${ROW_CLASSES.svg}`]: (theme) => ({
    userSelect: 'none',
    width: '1em',
    height: '1em',
    display: 'inline-block',
    flexShrink: '0',
    fill: 'currentColor',
    fontSize: theme.typography.pxToRem(20),
    transition: theme.transitions.create('fill', { duration: theme.transitions.duration.shorter }),
  }),
  // RadioGroup row: options side by side, never wrapping inside the cell
  [`& .${ROW_CLASSES.radios}`]: () => ({ display: 'flex', flexDirection: 'row', flexWrap: 'nowrap' }),
  // FormControlLabel
  [`& .${ROW_CLASSES.option}`]: () => ({
    display: 'inline-flex',
    alignItems: 'center',
    cursor: 'pointer',
    verticalAlign: 'middle',
    WebkitTapHighlightColor: 'transparent',
    marginLeft: '-11px',
    marginRight: '8px',
  }),
  [`& .${ROW_CLASSES.radiosDisabled} .${ROW_CLASSES.option}`]: () => ({ cursor: 'default' }),
  [`& .${ROW_CLASSES.text}`]: (theme) => ({ ...theme.typography.body1, margin: '0' }),
  [`& .${ROW_CLASSES.radiosDisabled} .${ROW_CLASSES.text}`]: (theme) => ({ color: theme.palette.text.disabled }),
  // Radio size="small": 9 px around a 20 px icon, text.secondary, primary when checked
  [`& .${ROW_CLASSES.control}`]: (theme) => ({
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    position: 'relative',
    boxSizing: 'border-box',
    padding: '9px',
    borderRadius: '50%',
    verticalAlign: 'middle',
    cursor: 'pointer',
    userSelect: 'none',
    color: theme.palette.text.secondary,
    '&:hover': {
      backgroundColor: alpha(theme.palette.primary.main, theme.palette.action.hoverOpacity),
      '@media (hover: none)': { backgroundColor: 'transparent' },
    },
    '& > input': {
      cursor: 'inherit',
      position: 'absolute',
      opacity: '0',
      width: '100%',
      height: '100%',
      top: '0',
      left: '0',
      margin: '0',
      padding: '0',
      zIndex: '1',
    },
  }),
  [`& .${ROW_CLASSES.radiosDisabled} .${ROW_CLASSES.control}`]: (theme) => ({
    color: theme.palette.action.disabled,
    cursor: 'default',
    pointerEvents: 'none',
  }),
  [`& .${ROW_CLASSES.icon}`]: (theme) => ({
    position: 'relative',
    display: 'flex',
    // the ring, and the dot over it, grown from nothing when checked
    '& > svg:first-of-type': { transform: 'scale(1)' },
    '& > svg + svg': {
      left: '0',
      position: 'absolute',
      transform: 'scale(0)',
      transition: theme.transitions.create('transform', {
        easing: theme.transitions.easing.easeIn,
        duration: theme.transitions.duration.shortest,
      }),
    },
    '&::after': { ...focusTint, display: 'none', inset: '-9px' },
  }),
  [`& .${ROW_CLASSES.control} > input:checked + .${ROW_CLASSES.icon}`]: (theme) => ({
    color: theme.palette.primary.main,
    '& > svg + svg': {
      transform: 'scale(1)',
      transition: theme.transitions.create('transform', {
        easing: theme.transitions.easing.easeOut,
        duration: theme.transitions.duration.shortest,
      }),
    },
  }),
  [`& .${ROW_CLASSES.control} > input:disabled + .${ROW_CLASSES.icon}`]: (theme) => ({ color: theme.palette.action.disabled }),
  [`& .${ROW_CLASSES.control} > input:focus-visible + .${ROW_CLASSES.icon}::after`]: () => ({ display: 'block' }),
  // unless motion is reduced: the focus tint breathes and a press shows it while held, where
  // MUI's ripples would run
  [`@media (prefers-reduced-motion: no-preference)`]: (theme) => ({
    [`& .${ROW_CLASSES.control}:active > .${ROW_CLASSES.icon}::after`]: { display: 'block' },
    [`& .${ROW_CLASSES.action}:active::after`]: focusTint,
    [`& .${ROW_CLASSES.control} > input:focus-visible + .${ROW_CLASSES.icon}::after, & .${ROW_CLASSES.action}:focus-visible::after`]: {
      animation: `${pulsate} 2500ms ${theme.transitions.easing.easeInOut} 200ms infinite`,
    },
  }),
  // IconButton size="small" with a small icon
  [`& .${ROW_CLASSES.action}`]: (theme) => ({
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    position: 'relative',
    boxSizing: 'border-box',
    WebkitTapHighlightColor: 'transparent',
    backgroundColor: 'transparent',
    outline: '0',
    border: '0',
    margin: '0',
    cursor: 'pointer',
    userSelect: 'none',
    verticalAlign: 'middle',
    appearance: 'none',
    textDecoration: 'none',
    textAlign: 'center',
    flex: '0 0 auto',
    fontSize: theme.typography.pxToRem(18),
    padding: '5px',
    borderRadius: '50%',
    color: theme.palette.action.active,
    '--RowAction-hoverBg': alpha(theme.palette.action.active, theme.palette.action.hoverOpacity),
    transition: theme.transitions.create('background-color', { duration: theme.transitions.duration.shortest }),
    '&[data-color="primary"]': {
      color: theme.palette.primary.main,
      '--RowAction-hoverBg': alpha(theme.palette.primary.main, theme.palette.action.hoverOpacity),
    },
    '&[data-color="error"]': {
      color: theme.palette.error.main,
      '--RowAction-hoverBg': alpha(theme.palette.error.main, theme.palette.action.hoverOpacity),
    },
    '&::-moz-focus-inner': { borderStyle: 'none' },
    '&:hover': {
      backgroundColor: 'var(--RowAction-hoverBg)',
      '@media (hover: none)': { backgroundColor: 'transparent' },
    },
    '&:focus-visible::after': focusTint,
    '&:disabled': { pointerEvents: 'none', cursor: 'default', backgroundColor: 'transparent', color: theme.palette.action.disabled },
    '@media print': { colorAdjust: 'exact' },
  }),
};
