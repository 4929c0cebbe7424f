import { Link as RouterLink } from 'react-router';
import { Tab } from '@mui/material';
import { ScrollableTabs } from '../../ui/tabs/ScrollableTabs';

/** A ship's views: its dashboard and its map for the drawer's period, and its carbon ledger (features/carbon). */
export function ShipViewTabs({
  facilityId,
  current,
}: {
  facilityId: string;
  current: 'dashboard' | 'map' | 'carbon';
}) {
  return (
    <ScrollableTabs
      value={current}
      sx={{ borderBottom: 1, borderColor: 'divider', mb: 2 }}
      aria-label="Ship views"
    >
      <Tab value="dashboard" label="Dashboard" component={RouterLink} to={`/ship/${facilityId}`} />
      <Tab
        value="map"
        label="Map"
        component={RouterLink}
        to={`/ship/${facilityId}/map`}
        data-testid="tab-map"
      />
      <Tab
        value="carbon"
        label="Carbon"
        component={RouterLink}
        to={`/ship/${facilityId}/carbon`}
        data-testid="tab-carbon"
      />
    </ScrollableTabs>
  );
}
