import { useEffect, useState } from 'react';
import { Navigate, Outlet, useLocation, useNavigate, useParams, Link as RouterLink } from 'react-router';
import {
  Box,
  Button,
  FormControl,
  InputLabel,
  MenuItem,
  Paper,
  Select,
  Skeleton,
  Stack,
  Toolbar,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { administrationPath, canManageAllOrganizations, isAdmin } from '@portal/contracts/rules';
import { useSession } from '../../lib/session';
import { PageHeading } from '../../ui/headings/PageHeading';
import { organizationsQuery } from './organizations-api';
import type { AdminContext } from './admin-context';

const CURRENT_KEY = 'portal.admin.organization';

/**
 * Administration (/admin): a toolbar with the organization's name; for SystemAdmin the Messages, Organizations,
 * Maintenance, Outbox, Access management and Webhooks buttons and the organization switcher, for a UserAdmin Access
 * management and Webhooks. A skeleton shows until the organizations load.
 */
export default function AdminLayout() {
  const { profile } = useSession();
  const roles = profile?.roles ?? [];
  const systemAdmin = canManageAllOrganizations(roles);
  const params = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const organizations = useQuery({ ...organizationsQuery(), enabled: isAdmin(roles) });
  const [remembered, setRemembered] = useState<string | null>(() => sessionStorage.getItem(CURRENT_KEY));
  const currentOrganizationId =
    params.organizationId ?? (systemAdmin ? remembered : (profile?.organizationId ?? null));

  useEffect(() => {
    if (systemAdmin && params.organizationId) {
      sessionStorage.setItem(CURRENT_KEY, params.organizationId);
      setRemembered(params.organizationId);
    }
  }, [systemAdmin, params.organizationId]);

  if (!profile) return null;
  if (!isAdmin(roles)) return <Navigate to="/" replace />;
  // A UserAdmin's administration is the own organization's access matrix and webhooks.
  if (!systemAdmin && !location.pathname.endsWith('/manage') && !location.pathname.endsWith('/webhooks'))
    return <Navigate to={administrationPath(roles, profile.organizationId)!} replace />;

  const current = organizations.data?.find((o) => o.id === currentOrganizationId);
  const setCurrentOrganizationId = (id: string) => {
    sessionStorage.setItem(CURRENT_KEY, id);
    setRemembered(id);
    void navigate(`/admin/${encodeURIComponent(id)}/manage`);
  };
  const context: AdminContext = {
    organizations: organizations.data ?? [],
    currentOrganizationId,
    setCurrentOrganizationId,
  };
  const on = (suffix: string) => location.pathname.endsWith(suffix);
  const openCurrent = (suffix: 'manage' | 'webhooks') =>
    currentOrganizationId && navigate(`/admin/${encodeURIComponent(currentOrganizationId)}/${suffix}`);

  return (
    <Box sx={{ p: { xs: 1, sm: 3 } }}>
      <Paper variant="outlined" sx={{ mb: 2 }}>
        <Toolbar
          sx={{ gap: { xs: 1, sm: 2 }, flexWrap: 'wrap', py: 1, px: { xs: 1.5, sm: 2 } }}
          data-testid="admin-toolbar"
        >
          {organizations.isPending ? (
            <Skeleton variant="text" width={240} height={40} data-testid="admin-skeleton" />
          ) : (
            <PageHeading
              variant="h6"
              sx={{ flex: 1, minWidth: 200, overflowWrap: 'anywhere' }}
              data-testid="admin-organization-name"
            >
              {current?.name ?? (systemAdmin ? 'Administration' : profile.organizationName)}
            </PageHeading>
          )}
          {!systemAdmin && (
            // The spec gives a UserAdmin's toolbar no buttons: Webhooks is ours, and the way back from it.
            <Stack direction="row" spacing={1}>
              {!on('/manage') && (
                <Button variant="outlined" onClick={() => openCurrent('manage')}>
                  Access management
                </Button>
              )}
              <Button
                variant={on('/webhooks') ? 'contained' : 'outlined'}
                onClick={() => openCurrent('webhooks')}
              >
                Webhooks
              </Button>
            </Stack>
          )}
          {systemAdmin && (
            // A phone gets an even grid: Messages | Organizations, Maintenance | Outbox, Data retention full width,
            // Access management | Webhooks, then the switcher full width.
            <Box
              sx={{
                // From md on a row that wraps: seven buttons and the switcher are wider than a laptop's page.
                display: { xs: 'grid', md: 'flex' },
                flexWrap: 'wrap',
                gap: 1,
                alignItems: 'center',
                width: { xs: '100%', md: 'auto' },
                gridTemplateColumns: '1fr 1fr',
                '& .MuiButton-root': { whiteSpace: 'nowrap' },
              }}
            >
              <Button
                component={RouterLink}
                to="/admin/messages"
                variant={on('/messages') ? 'contained' : 'outlined'}
              >
                Messages
              </Button>
              <Button
                component={RouterLink}
                to="/admin/organizations"
                variant={on('/organizations') ? 'contained' : 'outlined'}
              >
                Organizations
              </Button>
              <Button
                component={RouterLink}
                to="/admin/maintenance"
                variant={on('/maintenance') ? 'contained' : 'outlined'}
              >
                Maintenance
              </Button>
              <Button
                component={RouterLink}
                to="/admin/outbox"
                variant={on('/outbox') ? 'contained' : 'outlined'}
              >
                Outbox
              </Button>
              <Button
                component={RouterLink}
                to="/admin/data-retention"
                variant={on('/data-retention') ? 'contained' : 'outlined'}
                sx={{ gridColumn: { xs: '1 / -1', md: 'auto' } }}
              >
                Data retention
              </Button>
              <Button
                variant={on('/manage') ? 'contained' : 'outlined'}
                disabled={!currentOrganizationId}
                onClick={() => openCurrent('manage')}
              >
                Access management
              </Button>
              <Button
                variant={on('/webhooks') ? 'contained' : 'outlined'}
                disabled={!currentOrganizationId}
                onClick={() => openCurrent('webhooks')}
              >
                Webhooks
              </Button>
              {organizations.isPending ? (
                <Skeleton
                  variant="rounded"
                  height={40}
                  sx={{ gridColumn: { xs: '1 / -1', md: 'auto' }, width: { md: 220 } }}
                />
              ) : (
                <FormControl
                  size="small"
                  fullWidth
                  sx={{ gridColumn: { xs: '1 / -1', md: 'auto' }, width: { md: 220 } }}
                >
                  <InputLabel id="admin-organization-switcher">Organization</InputLabel>
                  <Select
                    labelId="admin-organization-switcher"
                    label="Organization"
                    value={current ? current.id : ''}
                    onChange={(e) => setCurrentOrganizationId(e.target.value)}
                  >
                    {(organizations.data ?? []).map((o) => (
                      <MenuItem key={o.id} value={o.id}>
                        {o.name}
                      </MenuItem>
                    ))}
                  </Select>
                </FormControl>
              )}
            </Box>
          )}
        </Toolbar>
      </Paper>
      {organizations.isPending ? (
        <Stack spacing={1}>
          {[0, 1, 2, 3].map((i) => (
            <Skeleton key={i} variant="rounded" height={48} />
          ))}
        </Stack>
      ) : (
        <Outlet context={context} />
      )}
    </Box>
  );
}
