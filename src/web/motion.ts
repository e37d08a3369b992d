/**
 * The browser's "reduce motion" setting (prefers-reduced-motion: reduce): the consoles then
 * drop their animations (sidebar folding, dialogs, drawers, ripples) and show each state at
 * once. Spread into a theme's options.
 */
import type { ThemeOptions } from '@mui/material/styles';

export function prefersReducedMotion(): boolean {
  return (
    typeof window !== 'undefined' &&
    typeof window.matchMedia === 'function' &&
    window.matchMedia('(prefers-reduced-motion: reduce)').matches
  );
}

const NO_DURATION = { shortest: 0, shorter: 0, short: 0, standard: 0, complex: 0, enteringScreen: 0, leavingScreen: 0 };

/** Theme options without animations when the user asks for reduced motion, else none. */
export function motionOptions(reduced = prefersReducedMotion()): Pick<ThemeOptions, 'transitions'> {
  return reduced ? { transitions: { create: () => 'none', duration: NO_DURATION } } : {};
}

/** MuiButtonBase options without the ripple when motion is reduced. */
export function rippleOptions(reduced = prefersReducedMotion()): NonNullable<ThemeOptions['components']> {
  return reduced ? { MuiButtonBase: { defaultProps: { disableRipple: true } } } : {};
}
