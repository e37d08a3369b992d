import { createTheme } from '@mui/material/styles';
import { phoneLayoutOptions } from '../phoneLayout.ts';
import { motionOptions, rippleOptions } from '../motion.ts';

export const loginTheme = createTheme({
  palette: { primary: { main: '#1890ff' } },
  ...motionOptions(),
  components: { ...rippleOptions(), ...phoneLayoutOptions() },
});
