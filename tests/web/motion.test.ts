import { describe, expect, it } from 'vitest';
import { createTheme } from '@mui/material/styles';
import { motionOptions, rippleOptions } from '../../src/web/motion.ts';

describe('reduced motion', () => {
  it('without the setting the theme keeps its animations and ripples', () => {
    const theme = createTheme({ ...motionOptions(false), components: rippleOptions(false) });
    expect(theme.transitions.create('height')).toMatch(/height \d+ms/);
    expect(theme.transitions.duration.standard).toBeGreaterThan(0);
    expect(theme.components?.MuiButtonBase).toBeUndefined();
  });

  it('with it, transitions are none, durations zero and buttons have no ripple', () => {
    const theme = createTheme({ ...motionOptions(true), components: rippleOptions(true) });
    expect(theme.transitions.create('height')).toBe('none');
    expect(theme.transitions.duration.standard).toBe(0);
    expect(theme.transitions.duration.enteringScreen).toBe(0);
    expect(theme.components?.MuiButtonBase?.defaultProps?.disableRipple).toBe(true);
  });
});
