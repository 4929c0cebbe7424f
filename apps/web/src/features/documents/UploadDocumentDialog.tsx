import { useState } from 'react';
import {
  Button,
  FormControl,
  InputLabel,
  MenuItem,
  Select,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import type { Facility } from '@portal/contracts/facilities';
import { DOCUMENT_MESSAGES } from '@portal/contracts/documents';
import { useNotify } from '../../lib/notifications';
import { useUploadDocument } from './documents-api';
import { FormDialog } from '../../ui/dialogs/FormDialog';

const FIELDS = [
  { name: 'docType', label: 'Document type', type: 'text' },
  { name: 'visitOrActionDate', label: 'Visit/Action date', type: 'date' },
  { name: 'docDate', label: 'Document date', type: 'date' },
  { name: 'expiry', label: 'Expiry date', type: 'date' },
  { name: 'equipmentTag', label: 'Equipment tag', type: 'text' },
] as const;

/** SystemAdmin uploads a service document for a ship; the ship's users get a message about it. */
export function UploadDocumentDialog({ ships, onClose }: { ships: Facility[]; onClose(): void }) {
  const [facilityId, setFacilityId] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  const upload = useUploadDocument();
  const { error, success } = useNotify();

  const submit = () =>
    upload.mutate(
      { facilityId, file: file!, fields },
      {
        onSuccess: () => {
          success();
          onClose();
        },
        onError: (cause) => error(undefined, cause),
      },
    );

  return (
    <FormDialog
      title="Upload document"
      onClose={onClose}
      cancelLabel="Close"
      submitLabel="Upload"
      onSubmit={submit}
      invalid={!facilityId || !file}
      busy={upload.isPending}
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        <FormControl fullWidth>
          <InputLabel id="document-ship">Ship</InputLabel>
          <Select
            labelId="document-ship"
            label="Ship"
            value={facilityId}
            onChange={(e) => setFacilityId(e.target.value)}
          >
            {ships.map((s) => (
              <MenuItem key={s.id} value={s.id}>
                {s.name}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Button component="label" variant="outlined">
            Choose file
            <input
              hidden
              type="file"
              aria-label="Document file"
              onChange={(e) => setFile(e.target.files?.[0] ?? null)}
            />
          </Button>
          <Typography variant="body2" color={file ? 'text.primary' : 'text.secondary'}>
            {file?.name ?? DOCUMENT_MESSAGES.fileRequired}
          </Typography>
        </Stack>
        {FIELDS.map((f) => (
          <TextField
            key={f.name}
            label={f.label}
            type={f.type}
            value={fields[f.name] ?? ''}
            onChange={(e) => setFields((v) => ({ ...v, [f.name]: e.target.value }))}
            slotProps={f.type === 'date' ? { inputLabel: { shrink: true } } : undefined}
            fullWidth
          />
        ))}
      </Stack>
    </FormDialog>
  );
}
