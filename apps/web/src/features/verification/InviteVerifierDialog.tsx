import { useState } from 'react';
import { Stack, TextField, Typography } from '@mui/material';
import { fieldErrors } from '@portal/contracts/forms';
import { verifierInviteBodySchema } from '@portal/contracts/verification';
import { useNotify } from '../../lib/notifications';
import { FormDialog } from '../../ui/dialogs/FormDialog';
import { failureMessage, useInviteVerifier } from './verification-api';

/** The years typed as "2025, 2026": numbers where they are numbers, the text itself otherwise (the schema says why). */
const yearsOf = (text: string): unknown[] =>
  text
    .split(/[\s,;]+/)
    .filter(Boolean)
    .map((y) => (/^\d+$/.test(y) ? Number(y) : y));

/**
 * "Invite verifier": the verifier's e-mail address (its username) and the reporting years it verifies. The portal
 * e-mails a link to choose a password; the verifier then signs in and sees only the organization's ledger of those
 * years.
 */
export function InviteVerifierDialog({
  organizationId,
  onClose,
}: {
  organizationId: string;
  onClose(): void;
}) {
  const notify = useNotify();
  const invite = useInviteVerifier(organizationId);
  const [email, setEmail] = useState('');
  const [years, setYears] = useState(String(new Date().getUTCFullYear() - 1));
  const [touched, setTouched] = useState(false);
  const body = { email, years: yearsOf(years) };
  const errors: Record<string, string | undefined> = fieldErrors(verifierInviteBodySchema, body);
  const invalid = Object.values(errors).some(Boolean);
  const serverFields = (invite.error as { body?: { fields?: Record<string, string> } } | null)?.body?.fields;

  const submit = () => {
    setTouched(true);
    if (invalid) return;
    invite.mutate(verifierInviteBodySchema.parse(body), {
      onSuccess: (verifier) => {
        notify.success(`${verifier.email} was invited: the e-mail with the link is on its way`);
        onClose();
      },
    });
  };

  return (
    <FormDialog
      title="Invite verifier"
      onClose={onClose}
      submitLabel="Invite"
      onSubmit={submit}
      busy={invite.isPending}
      error={
        invite.isError
          ? (failureMessage(invite.error) ?? 'Something went wrong! Please try again')
          : undefined
      }
      data-testid="invite-verifier-dialog"
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        <Typography variant="body2" color="text.secondary">
          The verifier reads your ships&apos; carbon ledger, bunker delivery notes, record books and
          reconciliation of the years you choose, records findings and an opinion, and changes nothing else.
        </Typography>
        <TextField
          label="E-mail"
          type="email"
          autoComplete="off"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          required
          error={Boolean((touched && errors.email) || serverFields?.email)}
          helperText={(touched && errors.email) || serverFields?.email || 'Also the verifier’s username'}
        />
        <TextField
          label="Reporting years"
          value={years}
          onChange={(event) => setYears(event.target.value)}
          required
          error={touched && Boolean(errors.years)}
          helperText={(touched && errors.years) || 'One or more, separated by commas: 2025, 2026'}
        />
      </Stack>
    </FormDialog>
  );
}
