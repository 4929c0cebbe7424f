import { useState } from 'react';
import { Alert, Button, Card, CardContent, Chip, Skeleton, Stack, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { MESSAGES } from '@portal/contracts/rules';
import { useNotify } from '../../lib/notifications';
import { ConfirmDialog } from '../../ui/dialogs/ConfirmDialog';
import { maintenanceQuery, useSetMaintenance } from './maintenance-api';

const reloadPage = () => window.location.reload();

/**
 * The maintenance switch, with a confirmation. Switching reloads the page: on, the tab shows the maintenance console
 * at once (docs/decisions/0105-maintenance-console.md); off, the product comes back.
 */
export function MaintenanceSwitch({ reload = reloadPage }: { reload?: () => void }) {
  const state = useQuery(maintenanceQuery());
  const set = useSetMaintenance();
  const { success, error } = useNotify();
  const [confirming, setConfirming] = useState(false);
  const on = state.data?.maintenance ?? false;

  return (
    <Card variant="outlined" sx={{ mb: 3 }}>
      <CardContent>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
          <Typography variant="h6" component="h2">
            Maintenance mode
          </Typography>
          {state.isPending ? (
            <Skeleton variant="rounded" width={48} height={24} />
          ) : (
            <Chip
              size="small"
              label={on ? 'On' : 'Off'}
              color={on ? 'warning' : 'default'}
              data-testid="maintenance-state"
            />
          )}
        </Stack>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          While maintenance mode is on, every user sees only the maintenance page, at the latest 5 minutes
          after it was switched on. This screen stays open to SystemAdmins, without the rest of the portal, so
          it can be switched off again.
        </Typography>
        {state.isError ? (
          <Alert severity="error">{MESSAGES.DEFAULT_ERROR}</Alert>
        ) : (
          <Button
            variant="contained"
            color={on ? 'primary' : 'warning'}
            disabled={state.isPending || set.isPending}
            onClick={() => setConfirming(true)}
          >
            {on ? 'Switch maintenance mode off' : 'Switch maintenance mode on'}
          </Button>
        )}
      </CardContent>
      {confirming && (
        <ConfirmDialog
          title={on ? 'Switch maintenance mode off?' : 'Switch maintenance mode on?'}
          text={
            on
              ? 'Users get the portal back at the latest 5 minutes from now, or when they reload the page.'
              : 'Users will see only the maintenance page, at the latest 5 minutes from now, until it is switched off.'
          }
          confirmLabel={on ? 'Switch off' : 'Switch on'}
          busy={set.isPending}
          onClose={() => setConfirming(false)}
          onConfirm={() =>
            set.mutate(!on, {
              onSuccess: () => {
                success();
                setConfirming(false);
                reload();
              },
              onError: (cause) => {
                error(MESSAGES.SAVE_ERROR, cause);
                setConfirming(false);
              },
            })
          }
        />
      )}
    </Card>
  );
}
