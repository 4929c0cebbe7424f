import { Link as RouterLink, Outlet, useLocation } from 'react-router';
import { Box, Tab, Tabs, Typography } from '@mui/material';

const TABS = [
  { path: 'pureserv', label: 'Expert service organization' },
  { path: 'full-remote-access', label: 'Full remote access' },
  { path: 'tailor-made-service-agreements', label: 'Tailor-made service agreements' },
  { path: 'documents', label: 'Documents' },
] as const;

/** /service: the three service pages and the ship documents. */
export default function ServiceLayout() {
  const segment = useLocation().pathname.replace(/\/+$/, '').split('/').pop();
  const current = TABS.find((t) => t.path === segment)?.path ?? false;
  return (
    <Box sx={{ p: { xs: 2, md: 3 } }}>
      <Typography variant="h5" component="h1" gutterBottom>
        Service
      </Typography>
      <Tabs
        value={current}
        variant="scrollable"
        allowScrollButtonsMobile
        sx={{ borderBottom: 1, borderColor: 'divider', mb: 3 }}
        aria-label="Service"
      >
        {TABS.map((tab) => (
          <Tab
            key={tab.path}
            value={tab.path}
            label={tab.label}
            component={RouterLink}
            to={`/service/${tab.path}`}
          />
        ))}
      </Tabs>
      <Outlet />
    </Box>
  );
}
