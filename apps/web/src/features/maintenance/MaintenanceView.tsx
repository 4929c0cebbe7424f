import type { ReactNode } from 'react';
import { Box, Paper, Typography } from '@mui/material';
import { MESSAGES } from '@portal/contracts/rules';

/**
 * The maintenance view: what everyone sees while maintenance is on. `children` go under its text: the maintenance
 * console's switch (docs/decisions/0105-maintenance-console.md).
 */
export function MaintenanceView({ children }: { children?: ReactNode }) {
  return (
    <Box
      component="main"
      sx={{
        minHeight: '100vh',
        display: 'grid',
        placeItems: 'center',
        p: { xs: 2, sm: 3 },
        bgcolor: 'background.default',
      }}
    >
      <Paper
        sx={{ p: { xs: 3, sm: 5 }, maxWidth: 560, width: '100%', textAlign: 'center' }}
        data-testid="maintenance"
      >
        <Typography variant="h4" component="h1" gutterBottom>
          Under maintenance
        </Typography>
        <Typography color="text.secondary">{MESSAGES.MAINTENANCE}</Typography>
        {children && <Box sx={{ mt: 3, textAlign: 'left' }}>{children}</Box>}
      </Paper>
    </Box>
  );
}
