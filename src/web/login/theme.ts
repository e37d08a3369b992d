import { createTheme } from '@mui/material/styles';
import { motionOptions, rippleOptions } from '../motion.ts';

export const loginTheme = createTheme({ palette: { primary: { main: '#1890ff' } }, ...motionOptions(), components: rippleOptions() });
