import { Link as RouterLink } from 'react-router';
import { Tab } from '@mui/material';
import type { Role } from '@portal/contracts/rules';
import { FLEET_ROLES, mayOpen } from '../../lib/access';
import { useLedgerYear } from '../../lib/ledger-year';
import { useSession } from '../../lib/session';
import { ScrollableTabs } from '../../ui/tabs/ScrollableTabs';

type ShipTab = 'events' | 'record-book' | 'fuel-records' | 'inspection-packs';

/**
 * The tabs, with the roles that may open their page (as the route table says, shell/router.tsx); `yearly`: the page
 * shows the address's reporting year.
 */
const TABS: { value: ShipTab; label: string; roles?: readonly Role[]; yearly?: true }[] = [
  { value: 'events', label: 'Events', roles: FLEET_ROLES },
  { value: 'record-book', label: 'Record book', yearly: true },
  { value: 'fuel-records', label: 'Fuel records', yearly: true },
  { value: 'inspection-packs', label: 'Inspection packs', roles: FLEET_ROLES },
];

/**
 * A ship's compliance pages: its events, its record book, its fuel records and its inspection packs, side by side;
 * the pages the user may open (a verifier: the record book and the fuel records), keeping the address's reporting
 * year (`?year=`) from one to the other.
 */
export function ShipTabs({ facilityId, current }: { facilityId: string; current: ShipTab }) {
  const { profile } = useSession();
  const roles = profile?.roles ?? [];
  const search = useLedgerYear()?.search ?? '';
  return (
    <ScrollableTabs
      value={current}
      sx={{ borderBottom: 1, borderColor: 'divider', mb: 2 }}
      aria-label="Ship compliance"
    >
      {TABS.filter((tab) => !tab.roles || mayOpen(roles, [tab.roles])).map((tab) => (
        <Tab
          key={tab.value}
          value={tab.value}
          label={tab.label}
          component={RouterLink}
          to={`/facilities/${facilityId}/${tab.value}${tab.yearly ? search : ''}`}
        />
      ))}
    </ScrollableTabs>
  );
}
