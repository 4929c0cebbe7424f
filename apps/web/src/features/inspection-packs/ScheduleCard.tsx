import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  CardActions,
  CardContent,
  Checkbox,
  FormControlLabel,
  FormGroup,
  Skeleton,
  Typography,
} from '@mui/material';
import type { InspectionPackSchedule } from '@portal/contracts/inspection-packs';
import { isAdmin, packPeriodLabel, monthPackPeriod } from '@portal/contracts/rules';
import { useNotify } from '../../lib/notifications';
import { useSession } from '../../lib/session';
import {
  failureMessage,
  inspectionPackScheduleQuery,
  useSaveInspectionPackSchedule,
} from './inspection-packs-api';
import { FormDialog } from '../../ui/dialogs/FormDialog';

const recipientLabel = (r: { username: string; email: string | null }) =>
  r.email ? `${r.username} (${r.email})` : `${r.username} (no e-mail address: set one in My profile, Alerts)`;

function ScheduleDialog({
  facilityId,
  schedule,
  onClose,
}: {
  facilityId: string;
  schedule: InspectionPackSchedule;
  onClose(): void;
}) {
  const notify = useNotify();
  const save = useSaveInspectionPackSchedule(facilityId);
  const [chosen, setChosen] = useState(() => new Set(schedule.recipients.map((r) => r.userId)));
  const toggle = (id: string) =>
    setChosen((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const run = (recipientIds: string[] | null) =>
    save.mutate(recipientIds, {
      onSuccess: () => {
        notify.success(recipientIds ? undefined : 'The monthly inspection pack is stopped');
        onClose();
      },
      onError: (error) => notify.error(failureMessage(error), error),
    });
  return (
    <FormDialog
      title="Monthly inspection pack"
      onClose={onClose}
      submitLabel="Save"
      onSubmit={() => run([...chosen])}
      invalid={chosen.size === 0}
      busy={save.isPending}
      startActions={
        schedule.enabled && (
          <Button color="error" disabled={save.isPending} onClick={() => run(null)} sx={{ mr: 'auto' }}>
            Stop monthly pack
          </Button>
        )
      }
    >
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        At the start of each month the pack of the previous calendar month (UTC) is built, and its download
        link is e-mailed to the users chosen here, at the address their alerts go to.
      </Typography>
      <FormGroup aria-label="Recipients">
        {schedule.candidates.map((c) => (
          <FormControlLabel
            key={c.userId}
            control={<Checkbox checked={chosen.has(c.userId)} onChange={() => toggle(c.userId)} />}
            label={recipientLabel(c)}
          />
        ))}
      </FormGroup>
      {chosen.size === 0 && (
        <Typography variant="body2" color="error" sx={{ mt: 1 }}>
          Choose at least one recipient
        </Typography>
      )}
    </FormDialog>
  );
}

/**
 * The organization's monthly pack of the ship: who gets its link, the last month packed; its administrators
 * change it.
 */
export function ScheduleCard({ facilityId }: { facilityId: string }) {
  const { profile } = useSession();
  const admin = isAdmin(profile?.roles ?? []);
  const schedule = useQuery(inspectionPackScheduleQuery(facilityId));
  const [editing, setEditing] = useState(false);
  const data = schedule.data;
  const last = data?.lastMonth ? monthPackPeriod(data.lastMonth) : null;
  return (
    <Card variant="outlined" component="section" aria-labelledby="pack-schedule-heading">
      <CardContent>
        <Typography id="pack-schedule-heading" variant="h6" component="h2" gutterBottom>
          Monthly inspection pack
        </Typography>
        {schedule.isError ? (
          <Alert severity="error">The monthly inspection pack could not be loaded.</Alert>
        ) : !data ? (
          <Skeleton width="60%" />
        ) : data.enabled ? (
          <>
            <Typography variant="body2">
              The pack of each previous month is e-mailed to{' '}
              {data.recipients.map((r) => r.username).join(', ')}.
            </Typography>
            {data.recipients.some((r) => !r.email) && (
              <Typography variant="body2" color="warning.main">
                {data.recipients
                  .filter((r) => !r.email)
                  .map((r) => r.username)
                  .join(', ')}{' '}
                gave no e-mail address (My profile, Alerts): no e-mail reaches them.
              </Typography>
            )}
            <Typography variant="body2" color="text.secondary">
              {last
                ? `Last month packed: ${packPeriodLabel(last)}.`
                : 'The first pack, of last month, is built in a few minutes.'}
            </Typography>
          </>
        ) : (
          <Typography variant="body2" color="text.secondary">
            No monthly pack of this ship for your organization.
            {admin ? '' : ' An administrator of your organization can set one up.'}
          </Typography>
        )}
      </CardContent>
      {admin && data && (
        <CardActions>
          <Button onClick={() => setEditing(true)}>
            {data.enabled ? 'Change recipients' : 'Schedule monthly pack'}
          </Button>
        </CardActions>
      )}
      {editing && data && (
        <ScheduleDialog facilityId={facilityId} schedule={data} onClose={() => setEditing(false)} />
      )}
    </Card>
  );
}
