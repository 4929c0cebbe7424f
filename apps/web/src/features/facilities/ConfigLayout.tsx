import { Link as RouterLink, Outlet, useLocation, useParams } from 'react-router';
import { Alert, Box, Tab } from '@mui/material';
import { MESSAGES } from '@portal/contracts/rules';
import { useFleet } from '../../lib/fleet-context';
import { ScrollableTabs } from '../../ui/tabs/ScrollableTabs';

export const CONFIG_TABS = [
  { path: 'info', label: 'Info' },
  { path: 'channels', label: 'Data sources' },
  { path: 'calculation-queue', label: 'Calculation queue' },
  { path: 'list', label: 'Measurement fields' },
  { path: 'data-health', label: 'Data health' },
] as const;

/** The ship configuration frame: tabs Info, Data sources (default), Calculation queue, Measurement fields, Data health. */
export default function ConfigLayout() {
  const { facilityId } = useParams();
  const { pathname } = useLocation();
  const { facilities } = useFleet();
  const segment = pathname.replace(/\/+$/, '').split('/').pop();
  // The detail page of a measurement field belongs to the Measurement fields tab.
  const current =
    segment === 'detail' ? 'list' : (CONFIG_TABS.find((t) => t.path === segment)?.path ?? false);
  const known = !facilities || facilities.some((f) => f.id === facilityId);
  return (
    <Box>
      <ScrollableTabs
        value={current}
        sx={{ borderBottom: 1, borderColor: 'divider', mb: 2 }}
        aria-label="Ship configuration"
      >
        {CONFIG_TABS.map((tab) => (
          <Tab
            key={tab.path}
            value={tab.path}
            label={tab.label}
            component={RouterLink}
            to={`/facilities/${facilityId}/config/${tab.path}`}
          />
        ))}
      </ScrollableTabs>
      {known ? <Outlet /> : <Alert severity="warning">{MESSAGES.SHIP_NOT_FOUND}</Alert>}
    </Box>
  );
}
