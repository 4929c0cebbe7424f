import { MaintenanceView } from './MaintenanceView';
import { mayOpen, SYSTEM_ADMIN_ONLY } from '../../lib/access';
import { useSession } from '../../lib/session';
import { MaintenanceSwitch } from './MaintenanceSwitch';

/**
 * /admin/maintenance while maintenance is on (docs/decisions/0105-maintenance-console.md): the maintenance view, as
 * everyone sees it, with the switch under it for a SystemAdmin; no shell (menus, drawer, bell, footer) and no audit
 * log. Anyone else sees the maintenance view alone.
 */
export default function MaintenanceConsole({ reload }: { reload?: () => void }) {
  const { profile } = useSession();
  if (!mayOpen(profile?.roles ?? [], [SYSTEM_ADMIN_ONLY])) return <MaintenanceView />;
  return (
    <MaintenanceView>
      <MaintenanceSwitch reload={reload} />
    </MaintenanceView>
  );
}
