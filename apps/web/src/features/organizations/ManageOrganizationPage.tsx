import { useState } from 'react';
import { useParams } from 'react-router';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  IconButton,
  Paper,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import { useQuery } from '@tanstack/react-query';
import type { OrganizationUser } from '@portal/contracts/organizations';
import { canManageAllOrganizations, MESSAGES } from '@portal/contracts/rules';
import { facilitiesQuery } from '../../lib/queries/facilities';
import { useNotify } from '../../lib/notifications';
import { useSession } from '../../lib/session';
import { ConfirmDialog } from '../../ui/dialogs/ConfirmDialog';
import { ApiKeysSection } from '../api-keys';
import { LinkOrganizationDialog } from './LinkOrganizationDialog';
import { OrganizationDialog } from './OrganizationDialog';
import { UserDialog } from './UserDialog';
import { OrganizationAlertDefaultsCard } from '../alerts';
import { DataHealthThresholdsCard } from '../data-health';
import { OrganizationEventRulesCard } from '../events';
import { VerifiersSection } from '../verification';
import { RetentionSection } from '../retention';
import { useOrganizationFacilityLink, useUnlinkOrganization, useUserFacilityLink } from './access-api';
import { organizationQuery, organizationUsersQuery } from './organizations-api';

type Confirming =
  { kind: 'unlink'; id: string; name: string } | { kind: 'remove-access'; facilityId: string; name: string };

/**
 * The ship access matrix of an organization: a row per ship it sees, a column per user and per linked organization.
 * Ships of another owner show that owner and let the organization give up its own access. Below, the
 * organization's API keys (features/api-keys).
 */
export default function ManageOrganizationPage() {
  const organizationId = useParams().organizationId!;
  const { profile } = useSession();
  const systemAdmin = canManageAllOrganizations(profile?.roles ?? []);
  const organization = useQuery(organizationQuery(organizationId));
  const users = useQuery(organizationUsersQuery(organizationId));
  const ships = useQuery(facilitiesQuery({ organizationId }));
  const userLink = useUserFacilityLink();
  const organizationLink = useOrganizationFacilityLink();
  const unlink = useUnlinkOrganization(organizationId);
  const { error, success } = useNotify();
  const [dialog, setDialog] = useState<'edit' | 'link' | 'add-user' | null>(null);
  const [editingUser, setEditingUser] = useState<OrganizationUser | null>(null);
  const [confirming, setConfirming] = useState<Confirming | null>(null);

  if (organization.isError || users.isError || ships.isError) {
    return <Alert severity="error">{organization.error?.message ?? MESSAGES.DEFAULT_ERROR}</Alert>;
  }
  if (!organization.data || !users.data || !ships.data) {
    return (
      <Stack spacing={1}>
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} variant="rounded" height={48} />
        ))}
      </Stack>
    );
  }
  const org = organization.data;
  // Verifiers see the organization's own ships by their role, not by ship access: the Verifiers section lists them.
  const members = users.data.filter((u) => !u.roles.includes('Verifier'));
  const linked = org.linkedOrganizations;
  const failed = (cause: unknown) => error(undefined, cause);

  const confirm = () => {
    if (!confirming) return;
    // Fixed defect of the described product: these failures were only logged (docs/decisions/0012).
    const done = {
      onSuccess: () => (success(), setConfirming(null)),
      onError: (cause: Error) => (failed(cause), setConfirming(null)),
    };
    if (confirming.kind === 'unlink') unlink.mutate(confirming.id, done);
    else organizationLink.mutate({ organizationId, facilityId: confirming.facilityId, granted: false }, done);
  };

  return (
    <Box>
      <Stack direction="row" spacing={1} sx={{ mb: 2, alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography variant="h6" component="h2" sx={{ flex: 1 }} data-testid="manage-organization-name">
          {org.name}
        </Typography>
        <Button variant="outlined" onClick={() => setDialog('edit')}>
          Edit organization
        </Button>
        <Button variant="outlined" onClick={() => setDialog('link')}>
          Link organization
        </Button>
        <Button variant="contained" onClick={() => setDialog('add-user')}>
          Add user
        </Button>
      </Stack>
      <TableContainer component={Paper} variant="outlined">
        <Table size="small" aria-label="Ship access">
          <TableHead>
            <TableRow>
              <TableCell>Ship</TableCell>
              {members.map((u) => (
                <TableCell key={u.id} align="center">
                  <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'center' }}>
                    <span>{u.username}</span>
                    <Tooltip title="Edit user">
                      <IconButton
                        size="small"
                        aria-label={`Edit ${u.username}`}
                        onClick={() => setEditingUser(u)}
                      >
                        <EditIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  </Stack>
                </TableCell>
              ))}
              {linked.map((l) => (
                <TableCell key={l.id} align="center" sx={{ bgcolor: 'action.hover' }}>
                  <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'center' }}>
                    <span>{l.name}</span>
                    <Tooltip title="Unlink organization">
                      <IconButton
                        size="small"
                        aria-label={`Unlink ${l.name}`}
                        onClick={() => setConfirming({ kind: 'unlink', id: l.id, name: l.name })}
                      >
                        <DeleteIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  </Stack>
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {ships.data.length === 0 && (
              <TableRow>
                <TableCell colSpan={1 + members.length + linked.length}>
                  {MESSAGES.NO_SHIPS_IN_ORGANIZATION}
                </TableCell>
              </TableRow>
            )}
            {ships.data.map((ship) => {
              const own = ship.primaryOrganizationId === organizationId;
              return (
                <TableRow key={ship.id} hover>
                  <TableCell>
                    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                      <span>{ship.name}</span>
                      {!own && (
                        <>
                          <Typography variant="body2" color="text.secondary">
                            ({ship.primaryOrganizationName})
                          </Typography>
                          <Tooltip title="Remove your access">
                            <IconButton
                              size="small"
                              aria-label={`Remove access to ${ship.name}`}
                              onClick={() =>
                                setConfirming({ kind: 'remove-access', facilityId: ship.id, name: ship.name })
                              }
                            >
                              <DeleteIcon fontSize="small" />
                            </IconButton>
                          </Tooltip>
                        </>
                      )}
                    </Stack>
                  </TableCell>
                  {members.map((u) => (
                    <TableCell key={u.id} align="center">
                      <Checkbox
                        checked={u.facilityIds.includes(ship.id)}
                        slotProps={{ input: { 'aria-label': `${u.username} access to ${ship.name}` } }}
                        onChange={(e) =>
                          userLink.mutate(
                            { userId: u.id, facilityId: ship.id, granted: e.target.checked },
                            { onError: failed },
                          )
                        }
                      />
                    </TableCell>
                  ))}
                  {linked.map((l) => (
                    <TableCell key={l.id} align="center" sx={{ bgcolor: 'action.hover' }}>
                      {own && (
                        <Checkbox
                          checked={l.facilityIds.includes(ship.id)}
                          slotProps={{ input: { 'aria-label': `${l.name} access to ${ship.name}` } }}
                          onChange={(e) =>
                            organizationLink.mutate(
                              { organizationId: l.id, facilityId: ship.id, granted: e.target.checked },
                              { onError: failed },
                            )
                          }
                        />
                      )}
                    </TableCell>
                  ))}
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </TableContainer>
      <ApiKeysSection organizationId={organizationId} />
      <VerifiersSection organizationId={organizationId} />
      <RetentionSection organizationId={organizationId} />

      <OrganizationAlertDefaultsCard organizationId={organizationId} />
      <OrganizationEventRulesCard organizationId={organizationId} />
      <DataHealthThresholdsCard organizationId={organizationId} />

      {dialog === 'edit' && (
        <OrganizationDialog organization={org} systemAdmin={systemAdmin} onClose={() => setDialog(null)} />
      )}
      {dialog === 'link' && (
        <LinkOrganizationDialog
          organizationId={organizationId}
          ownKey={org.linkKey}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog === 'add-user' && (
        <UserDialog organizationId={organizationId} roles={org.roles} onClose={() => setDialog(null)} />
      )}
      {editingUser && (
        <UserDialog
          organizationId={organizationId}
          user={editingUser}
          roles={org.roles}
          onClose={() => setEditingUser(null)}
        />
      )}
      {confirming && (
        <ConfirmDialog
          title={
            confirming.kind === 'unlink'
              ? `Are you sure you want to unlink ${confirming.name}?`
              : MESSAGES.removeAccessConfirm(confirming.name)
          }
          text={
            confirming.kind === 'unlink'
              ? 'Both organizations lose access to the ships they shared with each other.'
              : 'Your users lose access to the ship until its owner shares it again.'
          }
          confirmLabel={confirming.kind === 'unlink' ? 'Unlink' : 'Remove access'}
          busy={unlink.isPending || organizationLink.isPending}
          onConfirm={confirm}
          onClose={() => setConfirming(null)}
        />
      )}
    </Box>
  );
}
