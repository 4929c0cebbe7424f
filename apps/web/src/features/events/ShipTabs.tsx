import { Link as RouterLink } from 'react-router';
import { Tab } from '@mui/material';
import { ScrollableTabs } from '../../ui/tabs/ScrollableTabs';

/** A ship's compliance pages: its events, its record book, its fuel records and its inspection packs, side by side. */
export function ShipTabs({
  facilityId,
  current,
}: {
  facilityId: string;
  current: 'events' | 'record-book' | 'fuel-records' | 'inspection-packs';
}) {
  return (
    <ScrollableTabs
      value={current}
      sx={{ borderBottom: 1, borderColor: 'divider', mb: 2 }}
      aria-label="Ship compliance"
    >
      <Tab value="events" label="Events" component={RouterLink} to={`/facilities/${facilityId}/events`} />
      <Tab
        value="record-book"
        label="Record book"
        component={RouterLink}
        to={`/facilities/${facilityId}/record-book`}
      />
      <Tab
        value="fuel-records"
        label="Fuel records"
        component={RouterLink}
        to={`/facilities/${facilityId}/fuel-records`}
      />
      <Tab
        value="inspection-packs"
        label="Inspection packs"
        component={RouterLink}
        to={`/facilities/${facilityId}/inspection-packs`}
      />
    </ScrollableTabs>
  );
}
