import { createTheme } from '@mui/material/styles';

/**
 * Colours meet WCAG 2.1 AA (4.5:1 for text) on white and on the page background #f4f6f8: MUI's default warning
 * (#ed6c02, 3.1:1), info (#0288d1, 3.9:1) and the earlier teal secondary (#00897b, 4.0:1) did not, as text
 * (outlined and text buttons, chips) or under white text (contained buttons). docs/accessibility.md.
 */
export const theme = createTheme({
  palette: {
    primary: { main: '#0b4f8a' },
    secondary: { main: '#00796b' },
    warning: { main: '#b25000' },
    info: { main: '#0277bd' },
    background: { default: '#f4f6f8' },
  },
  shape: { borderRadius: 6 },
  typography: { fontFamily: 'Roboto, "Helvetica Neue", Arial, sans-serif' },
  components: {
    // A progress bar or spinner needs a name; those that measure something specific give their own.
    MuiLinearProgress: { defaultProps: { 'aria-label': 'Loading' } },
    MuiCircularProgress: { defaultProps: { 'aria-label': 'Loading' } },
    // The helper text of a disabled field still explains it (why it is disabled, what it will do): readable.
    // A table that scrolls sideways contains its visually hidden texts (position: absolute): without a positioned
    // scroll box they escape it and make the whole page scroll sideways on a phone.
    MuiTableContainer: { styleOverrides: { root: { position: 'relative' } } },
    MuiFormHelperText: {
      styleOverrides: {
        root: ({ theme }) => ({ '&.Mui-disabled': { color: theme.palette.text.secondary } }),
      },
    },
  },
});
