import { createTheme } from '@mui/material/styles';

export const loginTheme = createTheme({ palette: { primary: { main: '#1890ff' } } });
