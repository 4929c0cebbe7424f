import { useMemo, useState } from 'react';
import type { Dayjs } from 'dayjs';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  FormControlLabel,
  IconButton,
  List,
  ListItem,
  ListItemText,
  Paper,
  Skeleton,
  Stack,
  Switch,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import { useQuery } from '@tanstack/react-query';
import type { Message } from '@portal/contracts/messages';
import { isDraftEmpty, validateMessageForm } from '@portal/contracts/forms';
import {
  adminMessageLists,
  DEFAULT_MAINTENANCE_TEXT,
  DEFAULT_MESSAGE_TITLE,
  formatDateTime,
  MESSAGES,
} from '@portal/contracts/rules';
import { useNotify } from '../../lib/notifications';
import { ConfirmDialog } from '../../ui/dialogs/ConfirmDialog';
import { toPickerValue, UtcDateTimePicker } from '../../ui/dates/pickers';
import { allMessagesQuery, useCreateMessage, useDeleteMessage, useUpdateMessage } from './messages-api';

interface Draft {
  title: string;
  text: string;
  showFrom: Dayjs | null;
  showTo: Dayjs | null;
  notify: boolean;
}
type Field = 'title' | 'text' | 'showFrom' | 'showTo';
const EMPTY: Draft = { title: '', text: '', showFrom: null, showTo: null, notify: false };

const formValues = (d: Draft) => ({
  title: d.title,
  text: d.text,
  showFrom: d.showFrom && d.showFrom.isValid() ? d.showFrom.toISOString() : d.showFrom ? 'invalid' : null,
  showTo: d.showTo && d.showTo.isValid() ? d.showTo.toISOString() : d.showTo ? 'invalid' : null,
  notify: d.notify,
});

/**
 * Broadcast messages (SystemAdmin): compose or edit, and the Active, Upcoming and past lists. Times are entered and
 * shown in UTC on a 24-hour clock. Editing saves the same message (PUT), so who has read it is kept unless its
 * words changed. Cancelling a new draft with content or an edit with changes asks first.
 */
export default function MessagesAdminPage() {
  const messages = useQuery(allMessagesQuery());
  const create = useCreateMessage();
  const update = useUpdateMessage();
  const remove = useDeleteMessage();
  const { error, success } = useNotify();
  const [draft, setDraft] = useState<Draft | null>(null);
  const [original, setOriginal] = useState<Draft | null>(null);
  const [editing, setEditing] = useState<Message | null>(null);
  const [touched, setTouched] = useState<Partial<Record<Field, boolean>>>({});
  const [showPast, setShowPast] = useState(false);
  const [deleting, setDeleting] = useState<Message | null>(null);
  const [discarding, setDiscarding] = useState(false);
  const lists = useMemo(() => adminMessageLists(messages.data ?? [], new Date()), [messages.data]);

  const errors = draft ? validateMessageForm(formValues(draft)) : {};
  const valid = Object.keys(errors).length === 0;
  const shown = (field: Field) => (touched[field] ? errors[field] : undefined);
  const set = <K extends keyof Draft>(field: K, value: Draft[K]) =>
    setDraft((d) => (d ? { ...d, [field]: value } : d));
  const touch = (field: Field) => setTouched((t) => ({ ...t, [field]: true }));

  const open = (message?: Message) => {
    setEditing(message ?? null);
    setTouched({});
    const start: Draft = message
      ? {
          title: message.title ?? '',
          text: message.text,
          showFrom: toPickerValue(message.showFrom),
          showTo: toPickerValue(message.showTo),
          notify: message.notify,
        }
      : { ...EMPTY };
    setDraft(start);
    setOriginal(start);
  };
  const close = () => {
    setDraft(null);
    setOriginal(null);
    setEditing(null);
    setDiscarding(false);
  };
  const changed =
    draft !== null &&
    (editing
      ? original !== null && JSON.stringify(formValues(draft)) !== JSON.stringify(formValues(original))
      : !isDraftEmpty(formValues(draft)));
  const cancel = () => {
    if (changed) setDiscarding(true);
    else close();
  };
  const save = () => {
    if (!draft) return;
    setTouched({ title: true, text: true, showFrom: true, showTo: true });
    if (!valid) return;
    const done = {
      onSuccess: () => {
        success();
        close();
      },
      onError: (cause: unknown) =>
        error(editing ? MESSAGES.SAVE_ERROR : MESSAGES.MESSAGE_CREATE_ERROR, cause),
    };
    if (editing) update.mutate({ id: editing.id, values: formValues(draft) }, done);
    else create.mutate(formValues(draft), done);
  };
  const insertDefault = () =>
    setDraft((d) =>
      d
        ? { ...d, title: d.title.trim() ? d.title : DEFAULT_MESSAGE_TITLE, text: DEFAULT_MAINTENANCE_TEXT }
        : d,
    );

  const picker = (field: 'showFrom' | 'showTo', label: string) => (
    <UtcDateTimePicker
      label={label}
      value={draft![field]}
      onChange={(value) => set(field, value)}
      onClose={() => touch(field)}
      slotProps={{
        textField: {
          fullWidth: true,
          onBlur: () => touch(field),
          error: Boolean(shown(field)),
          helperText: shown(field),
          name: field,
        },
      }}
    />
  );

  const section = (title: string, items: Message[], testId: string) => (
    <Box sx={{ mb: 3 }} data-testid={testId}>
      <Typography variant="h6" component="h3" sx={{ mb: 1 }}>
        {title}
      </Typography>
      {items.length === 0 ? (
        <Typography color="text.secondary">No messages</Typography>
      ) : (
        <Paper variant="outlined">
          <List disablePadding>
            {items.map((m) => (
              <ListItem
                key={m.id}
                divider
                // Room for both action buttons: the text wraps before them instead of running under them.
                sx={{ pr: 13 }}
                secondaryAction={
                  <Stack direction="row">
                    <Tooltip title="Edit">
                      <IconButton aria-label={`Edit ${m.title ?? 'message'}`} onClick={() => open(m)}>
                        <EditIcon />
                      </IconButton>
                    </Tooltip>
                    <Tooltip title="Delete">
                      <IconButton
                        aria-label={`Delete ${m.title ?? 'message'}`}
                        onClick={() => setDeleting(m)}
                      >
                        <DeleteIcon />
                      </IconButton>
                    </Tooltip>
                  </Stack>
                }
              >
                <ListItemText
                  primary={
                    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                      <span>{m.title || '(no title)'}</span>
                      {m.notify && <Chip size="small" label="Notify" />}
                      {m.type && <Chip size="small" variant="outlined" label={m.type} />}
                    </Stack>
                  }
                  secondary={
                    <>
                      <Typography
                        component="span"
                        variant="body2"
                        sx={{ display: 'block', whiteSpace: 'pre-line' }}
                      >
                        {m.text}
                      </Typography>
                      <Typography component="span" variant="caption">
                        {formatDateTime(m.showFrom)} – {formatDateTime(m.showTo)} UTC
                      </Typography>
                    </>
                  }
                />
              </ListItem>
            ))}
          </List>
        </Paper>
      )}
    </Box>
  );

  return (
    <Box>
      <Stack direction="row" spacing={2} sx={{ mb: 2, alignItems: 'center' }}>
        <Typography variant="h5" component="h2" sx={{ flex: 1 }}>
          Messages
        </Typography>
        <Button variant="contained" startIcon={<AddIcon />} disabled={Boolean(draft)} onClick={() => open()}>
          Add message
        </Button>
      </Stack>

      {draft && (
        <Card variant="outlined" sx={{ mb: 3 }}>
          <CardContent>
            <Stack spacing={2}>
              <Typography variant="h6" component="h3">
                {editing ? 'Edit message' : 'New message'}
              </Typography>
              <TextField
                label="Title"
                value={draft.title}
                onChange={(e) => set('title', e.target.value)}
                onBlur={() => touch('title')}
                fullWidth
              />
              <TextField
                label="Message"
                value={draft.text}
                onChange={(e) => set('text', e.target.value)}
                onBlur={() => touch('text')}
                error={Boolean(shown('text'))}
                helperText={shown('text')}
                multiline
                minRows={3}
                fullWidth
              />
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                {picker('showFrom', 'Show from (UTC)')}
                {picker('showTo', 'Show until (UTC)')}
              </Stack>
              <FormControlLabel
                control={<Switch checked={draft.notify} onChange={(e) => set('notify', e.target.checked)} />}
                label="Notify users"
              />
              <Stack direction="row" spacing={1}>
                <Button onClick={insertDefault}>Insert default text</Button>
                <Box sx={{ flex: 1 }} />
                <Button onClick={cancel}>Cancel</Button>
                <Button variant="contained" disabled={create.isPending || update.isPending} onClick={save}>
                  Save
                </Button>
              </Stack>
            </Stack>
          </CardContent>
        </Card>
      )}

      {messages.isError ? (
        <Alert severity="error">{MESSAGES.MESSAGE_HISTORY_ERROR}</Alert>
      ) : messages.isPending ? (
        <Stack spacing={1}>
          <Skeleton variant="rounded" height={64} />
          <Skeleton variant="rounded" height={64} />
        </Stack>
      ) : (
        <>
          {section('Active', lists.active, 'messages-active')}
          {section('Upcoming', lists.upcoming, 'messages-upcoming')}
          <Button onClick={() => setShowPast((s) => !s)} sx={{ mb: 1 }}>
            {showPast ? 'Hide past messages' : 'Show past messages'}
          </Button>
          {showPast && section('Past', lists.past, 'messages-past')}
        </>
      )}

      {deleting && (
        <ConfirmDialog
          title="Delete message?"
          text={MESSAGES.DELETE_MESSAGE_CONFIRMATION}
          confirmLabel="Delete"
          busy={remove.isPending}
          onClose={() => setDeleting(null)}
          onConfirm={() =>
            remove.mutate(deleting.id, {
              onSuccess: () => {
                success();
                setDeleting(null);
              },
              onError: (cause) => {
                error(MESSAGES.MESSAGE_DELETE_ERROR, cause);
                setDeleting(null);
              },
            })
          }
        />
      )}
      {discarding && (
        <ConfirmDialog
          title={editing ? 'Discard your changes?' : 'Discard the message?'}
          text={editing ? 'Your changes to the message will be lost.' : 'What you have written will be lost.'}
          confirmLabel="Discard"
          onClose={() => setDiscarding(false)}
          onConfirm={close}
        />
      )}
    </Box>
  );
}
