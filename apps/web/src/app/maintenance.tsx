import { useEffect, type ReactNode } from 'react';
import { Box, Paper, Typography } from '@mui/material';
import { MAINTENANCE_CHECK_INTERVAL_MS, MESSAGES } from '@portal/contracts/rules';
import { fetchSettings } from './settings';

const reloadPage = () => window.location.reload();

/** Re-reads /settings.js every 300000 ms; when the maintenance flag changed, the page reloads. */
export function useMaintenanceCheck(current: boolean, reload: () => void = reloadPage) {
  useEffect(() => {
    const timer = setInterval(() => {
      fetchSettings()
        .then((settings) => {
          if (settings && settings.maintenance !== current) reload();
        })
        .catch(() => undefined);
    }, MAINTENANCE_CHECK_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [current, reload]);
}

export function MaintenanceView() {
  return (
    <Box
      sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', p: 3, bgcolor: 'background.default' }}
    >
      <Paper sx={{ p: 5, maxWidth: 560, textAlign: 'center' }} data-testid="maintenance">
        <Typography variant="h4" component="h1" gutterBottom>
          Under maintenance
        </Typography>
        <Typography color="text.secondary">{MESSAGES.MAINTENANCE}</Typography>
      </Paper>
    </Box>
  );
}

/** While the settings flag maintenance, only the maintenance view is shown. */
export function MaintenanceGate({ maintenance, children }: { maintenance: boolean; children: ReactNode }) {
  useMaintenanceCheck(maintenance);
  return maintenance ? <MaintenanceView /> : <>{children}</>;
}
