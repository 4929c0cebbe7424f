import { useState } from 'react';
import type { Dayjs } from 'dayjs';
import {
  Alert,
  Checkbox,
  FormControl,
  FormControlLabel,
  FormGroup,
  FormHelperText,
  FormLabel,
  IconButton,
  InputAdornment,
  Stack,
  TextField,
  Tooltip,
} from '@mui/material';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import {
  API_KEY_SCOPE_LABELS,
  API_KEY_SCOPES,
  type ApiKeyScope,
  type CreatedApiKey,
} from '@portal/contracts/api-keys';
import { validateApiKey } from '@portal/contracts/forms';
import { API_KEY_TEXTS } from '@portal/contracts/rules';
import { ApiRequestError } from '../../lib/api';
import { useNotify } from '../../lib/notifications';
import { pickerDayText, UtcDatePicker, utcDayjs } from '../../ui/dates/pickers';
import { useCreateApiKey } from './api-keys-api';
import { FormDialog } from '../../ui/dialogs/FormDialog';

type Field = 'name' | 'scopes' | 'expiresOn';

/**
 * New API key: a name, its scopes and an optional expiry date (UTC: the key stops working at the start of that
 * day). Create stays disabled while the form is invalid; the server's own refusals (a name taken) show at their
 * field. Once made, the dialog shows the key this once, with Copy and the warning that it will not be shown again.
 */
export function CreateApiKeyDialog({ organizationId, onClose }: { organizationId: string; onClose(): void }) {
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiKeyScope[]>([]);
  const [expiresOn, setExpiresOn] = useState<Dayjs | null>(null);
  const [touched, setTouched] = useState<Partial<Record<Field, boolean>>>({});
  const [serverErrors, setServerErrors] = useState<Partial<Record<Field, string>>>({});
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const create = useCreateApiKey(organizationId);
  const { error, success } = useNotify();
  // A picked day that is not a whole date (typed half-way) is sent as it is, for the rule to name.
  const expiryText = expiresOn ? (pickerDayText(expiresOn) ?? 'invalid') : null;
  const values = { name, scopes, expiresOn: expiryText };
  const errors = { ...validateApiKey(values), ...serverErrors };
  const valid = Object.keys(validateApiKey(values)).length === 0;
  const shown = (field: Field) => (touched[field] ? errors[field] : undefined) ?? serverErrors[field];

  const submit = () => {
    setServerErrors({});
    create.mutate(values, {
      onSuccess: setCreated,
      onError: (cause) => {
        const fields = cause instanceof ApiRequestError ? cause.body?.fields : undefined;
        if (fields && Object.keys(fields).length) setServerErrors(fields as Partial<Record<Field, string>>);
        else error(undefined, cause);
      },
    });
  };

  const copy = () => {
    if (!created) return;
    void navigator.clipboard?.writeText(created.key).then(
      () => success('The key was copied'),
      () => error('The key could not be copied: select it and copy it by hand'),
    );
  };

  return (
    <FormDialog
      title={created ? `API key ${created.name}` : 'New API key'}
      onClose={created ? undefined : onClose}
      submitLabel={created ? 'Done' : 'Create'}
      onSubmit={created ? onClose : submit}
      invalid={!created && !valid}
      busy={!created && create.isPending}
    >
      {created ? (
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Alert severity="warning">{API_KEY_TEXTS.copyNow}</Alert>
          <TextField
            label="API key"
            value={created.key}
            fullWidth
            slotProps={{
              input: {
                readOnly: true,
                sx: { fontFamily: 'monospace' },
                endAdornment: (
                  <InputAdornment position="end">
                    <Tooltip title="Copy">
                      <IconButton aria-label="Copy the API key" onClick={copy} edge="end">
                        <ContentCopyIcon />
                      </IconButton>
                    </Tooltip>
                  </InputAdornment>
                ),
              },
              htmlInput: { 'data-testid': 'created-api-key' },
            }}
            onFocus={(e) => e.target.select()}
          />
        </Stack>
      ) : (
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField
            label="Name"
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              setServerErrors((s) => ({ ...s, name: undefined }));
            }}
            onBlur={() => setTouched((t) => ({ ...t, name: true }))}
            error={Boolean(shown('name'))}
            helperText={shown('name')}
            fullWidth
            required
          />
          <FormControl error={Boolean(shown('scopes'))} component="fieldset" variant="standard">
            <FormLabel component="legend">Scopes</FormLabel>
            <FormGroup>
              {API_KEY_SCOPES.map((scope) => (
                <FormControlLabel
                  key={scope}
                  control={
                    <Checkbox
                      checked={scopes.includes(scope)}
                      onChange={(e) => {
                        setTouched((t) => ({ ...t, scopes: true }));
                        setScopes((current) =>
                          e.target.checked ? [...current, scope] : current.filter((s) => s !== scope),
                        );
                      }}
                    />
                  }
                  label={`${API_KEY_SCOPE_LABELS[scope]} (${scope})`}
                />
              ))}
            </FormGroup>
            {shown('scopes') && <FormHelperText>{shown('scopes')}</FormHelperText>}
          </FormControl>
          <UtcDatePicker
            label="Expires on (UTC, optional)"
            value={expiresOn}
            onChange={(value) => {
              setExpiresOn(value);
              setTouched((t) => ({ ...t, expiresOn: true }));
            }}
            minDate={utcDayjs.utc().add(1, 'day').startOf('day')}
            slotProps={{
              textField: {
                fullWidth: true,
                error: Boolean(shown('expiresOn')),
                helperText: shown('expiresOn') ?? 'Empty: the key does not expire.',
              },
              field: { clearable: true },
            }}
          />
        </Stack>
      )}
    </FormDialog>
  );
}
