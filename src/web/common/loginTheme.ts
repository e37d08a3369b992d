import { createTheme } from '@mui/material/styles';
import { phoneLayoutOptions } from '../phoneLayout.ts';
import { motionOptions, rippleOptions } from '../motion.ts';
import { ACCESSIBLE_COMPONENTS, BRAND_BLUE, STATUS_PALETTE } from './palette.ts';

export const loginTheme = createTheme({
  palette: { primary: { main: BRAND_BLUE }, ...STATUS_PALETTE },
  ...motionOptions(),
  components: { ...rippleOptions(), ...phoneLayoutOptions(), ...ACCESSIBLE_COMPONENTS },
});
