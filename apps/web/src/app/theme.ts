import { createTheme } from '@mui/material/styles';

export const theme = createTheme({
  palette: {
    primary: { main: '#0b4f8a' },
    secondary: { main: '#00897b' },
    background: { default: '#f4f6f8' },
  },
  shape: { borderRadius: 6 },
  typography: { fontFamily: 'Roboto, "Helvetica Neue", Arial, sans-serif' },
});
