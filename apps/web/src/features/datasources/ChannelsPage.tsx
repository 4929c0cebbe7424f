import { useEffect, useMemo, useRef, useState } from 'react';
import { useParams } from 'react-router';
import {
  Alert,
  Box,
  Button,
  Chip,
  Collapse,
  IconButton,
  InputAdornment,
  LinearProgress,
  List,
  ListItem,
  ListItemButton,
  ListItemText,
  Paper,
  Stack,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import AutoFixHighIcon from '@mui/icons-material/AutoFixHigh';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import SearchIcon from '@mui/icons-material/Search';
import type { DataSource, DataSourceChannel, RawChannel } from '@portal/contracts/datasources';
import { MESSAGES } from '@portal/contracts/rules';
import { useNotify } from '../../lib/notifications';
import { ConfirmDialog } from '../../ui/dialogs/ConfirmDialog';
import { useDataSources, useDeleteDataSource } from './datasources-api';
import { useSampleChannels } from './channels-api';
import { DataSourceDialog } from './DataSourceDialog';
import { ImportConfigurationDialog } from './ImportConfigurationDialog';
import { CustomChannelDialog, MappingPanel } from './MappingPanel';
import { SuggestMappingsDialog } from './SuggestMappingsDialog';
import { channelSecondaryText } from './channel-display';

type Selection = { dataSourceId: string; raw?: RawChannel; mapping?: DataSourceChannel };

/** A mapping chip beside the channel name: on a narrow screen the long names are cut with an ellipsis, not pushed out. */
const CHIP_SX = { maxWidth: '55%', flexShrink: 0, ml: 1 } as const;

const matches = (search: string, ...texts: (string | null | undefined)[]) =>
  !search || texts.some((t) => t?.toLowerCase().includes(search));

/** A data source in the tree: its raw sample channels with their mapping state, then mappings without a sample channel and custom channels. */
function DataSourceNode({
  dataSource,
  search,
  selected,
  onSelect,
  onEdit,
  onDelete,
  onCustom,
  onOpenCustom,
  onSuggest,
}: {
  dataSource: DataSource;
  search: string;
  selected: Selection | null;
  onSelect(s: Selection): void;
  onEdit(): void;
  onDelete(): void;
  onCustom(): void;
  /** A custom channel chosen in the tree opens the custom channel dialog, not the mapping panel. */
  onOpenCustom(channel: DataSourceChannel): void;
  onSuggest(): void;
}) {
  const [open, setOpen] = useState(true);
  const sample = useSampleChannels(dataSource.id);
  const raw = sample.data ?? [];
  const bySource = new Map(dataSource.channels.filter((c) => !c.isCustom).map((c) => [c.source, c]));
  const rawNames = new Set(raw.map((r) => r.channel));
  const extra = dataSource.channels.filter((c) => c.isCustom || !rawNames.has(c.source));
  const isSelected = (key: string) =>
    selected?.dataSourceId === dataSource.id && (selected.raw?.channel ?? selected.mapping?.id) === key;
  return (
    <Box component="li" sx={{ listStyle: 'none' }} data-testid={`datasource-${dataSource.name}`}>
      <Stack direction="row" sx={{ alignItems: 'center', pr: 1 }}>
        <IconButton size="small" onClick={() => setOpen(!open)} aria-label={open ? 'Collapse' : 'Expand'}>
          {open ? <ExpandLess /> : <ExpandMore />}
        </IconButton>
        <Typography sx={{ fontWeight: 600, flex: 1 }}>{dataSource.name}</Typography>
        {dataSource.isPrimary && <Chip size="small" color="primary" label="Primary" sx={{ mr: 1 }} />}
        <Tooltip title="Suggest mappings">
          <IconButton size="small" onClick={onSuggest} aria-label={`Suggest mappings for ${dataSource.name}`}>
            <AutoFixHighIcon fontSize="small" />
          </IconButton>
        </Tooltip>
        <Tooltip title="Custom channel">
          <IconButton size="small" onClick={onCustom} aria-label={`Add custom channel to ${dataSource.name}`}>
            <AddIcon fontSize="small" />
          </IconButton>
        </Tooltip>
        <Tooltip title="Edit data source">
          <IconButton size="small" onClick={onEdit} aria-label={`Edit ${dataSource.name}`}>
            <EditIcon fontSize="small" />
          </IconButton>
        </Tooltip>
        <Tooltip title="Delete data source">
          <IconButton size="small" onClick={onDelete} aria-label={`Delete ${dataSource.name}`}>
            <DeleteIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      </Stack>
      <Collapse in={open}>
        {sample.isLoading && <LinearProgress aria-label="Loading the sample file's channels" />}
        <List dense disablePadding sx={{ pl: { xs: 1, sm: 4 } }}>
          {raw
            .filter((r) =>
              matches(search, r.channel, bySource.get(r.channel)?.name, bySource.get(r.channel)?.localId),
            )
            .map((r) => {
              const mapping = bySource.get(r.channel);
              return (
                <ListItem key={r.channel} disablePadding>
                  <ListItemButton
                    selected={isSelected(r.channel)}
                    onClick={() => onSelect({ dataSourceId: dataSource.id, raw: r, mapping })}
                  >
                    <ListItemText
                      primary={r.channel}
                      secondary={channelSecondaryText(r, mapping)}
                      slotProps={{ secondary: { sx: { overflowWrap: 'anywhere' } } }}
                    />
                    {mapping ? (
                      <Chip size="small" color="success" label={mapping.name} sx={CHIP_SX} />
                    ) : (
                      <Chip size="small" variant="outlined" label="Not mapped" sx={CHIP_SX} />
                    )}
                  </ListItemButton>
                </ListItem>
              );
            })}
          {extra
            .filter((c) => matches(search, c.name, c.source, c.localId))
            .map((c) => (
              <ListItem key={c.id} disablePadding>
                <ListItemButton
                  selected={isSelected(c.id)}
                  onClick={() =>
                    c.isCustom ? onOpenCustom(c) : onSelect({ dataSourceId: dataSource.id, mapping: c })
                  }
                >
                  <ListItemText
                    primary={c.source}
                    secondary={channelSecondaryText(undefined, c)}
                    slotProps={{ secondary: { sx: { overflowWrap: 'anywhere' } } }}
                  />
                  <Chip
                    size="small"
                    color={c.isCustom ? 'secondary' : 'success'}
                    label={c.name}
                    sx={CHIP_SX}
                  />
                </ListItemButton>
              </ListItem>
            ))}
        </List>
        {!sample.isLoading && raw.length === 0 && extra.length === 0 && (
          <Typography variant="body2" color="text.secondary" sx={{ py: 1, pl: { xs: 1, sm: 4 } }}>
            No channels: add a sample file to the data source to see its channels.
          </Typography>
        )}
      </Collapse>
    </Box>
  );
}

/** Ship configuration, Data sources tab: the tree of data sources and channels, and the mapping panel. */
export default function ChannelsPage() {
  const { facilityId = '' } = useParams();
  const dataSources = useDataSources(facilityId);
  const remove = useDeleteDataSource(facilityId);
  const notify = useNotify();
  const [search, setSearch] = useState('');
  const [selected, setSelected] = useState<Selection | null>(null);
  const [dialog, setDialog] = useState<
    | { kind: 'add' }
    | { kind: 'edit'; dataSource: DataSource }
    | { kind: 'delete'; dataSource: DataSource }
    | { kind: 'custom'; dataSourceId: string; channel?: DataSourceChannel }
    | { kind: 'import' }
    | { kind: 'suggest'; dataSource: DataSource }
    | null
  >(null);
  const list = useMemo(() => dataSources.data ?? [], [dataSources.data]);
  const panelRef = useRef<HTMLDivElement>(null);
  // Below md the mapping panel sits under the long tree: bring it into view when a channel is chosen.
  useEffect(() => {
    const panel = panelRef.current;
    if (selected && panel && panel.getBoundingClientRect().top > window.innerHeight)
      panel.scrollIntoView?.({ behavior: 'smooth', block: 'start' });
  }, [selected]);
  // The panel follows the data: after a save, the selected channel's mapping comes from the refreshed list.
  const current = selected && list.find((d) => d.id === selected.dataSourceId);
  const selectedMapping =
    current &&
    (selected.raw
      ? current.channels.find((c) => !c.isCustom && c.source === selected.raw!.channel)
      : current.channels.find((c) => c.id === selected.mapping?.id));

  if (dataSources.isError) return <Alert severity="error">{MESSAGES.DATA_SOURCES_LOAD_ERROR}</Alert>;
  return (
    <Box>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 2 }}>
        <TextField
          size="small"
          sx={{ flex: { xs: 1, sm: 'none' }, minWidth: 0 }}
          placeholder="Search channels"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          slotProps={{
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
        <Box sx={{ flex: 1, display: { xs: 'none', sm: 'block' } }} />
        <Button
          variant="contained"
          startIcon={<AddIcon />}
          onClick={() => setDialog({ kind: 'add' })}
          sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
        >
          Add data source
        </Button>
      </Stack>
      {dataSources.isLoading && <LinearProgress />}
      {dataSources.isSuccess && list.length === 0 && (
        <Paper variant="outlined" sx={{ p: 4, textAlign: 'center' }}>
          <Typography gutterBottom>This ship has no data sources yet.</Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            Add a data source, or import the configuration of another ship.
          </Typography>
          <Button variant="outlined" onClick={() => setDialog({ kind: 'import' })}>
            Import configuration
          </Button>
        </Paper>
      )}
      {list.length > 0 && (
        <Stack sx={{ alignItems: 'flex-start' }} direction={{ xs: 'column', md: 'row' }} spacing={2}>
          <Paper
            variant="outlined"
            sx={{ flex: 1, minWidth: 0, width: { xs: '100%', md: 'auto' }, py: 1, m: 0, pl: 0 }}
            component="ul"
            data-testid="datasource-tree"
          >
            {list.map((d) => (
              <DataSourceNode
                key={d.id}
                dataSource={d}
                search={search.trim().toLowerCase()}
                selected={selected}
                onSelect={setSelected}
                onEdit={() => setDialog({ kind: 'edit', dataSource: d })}
                onDelete={() => setDialog({ kind: 'delete', dataSource: d })}
                onCustom={() => setDialog({ kind: 'custom', dataSourceId: d.id })}
                onOpenCustom={(channel) => setDialog({ kind: 'custom', dataSourceId: d.id, channel })}
                onSuggest={() => setDialog({ kind: 'suggest', dataSource: d })}
              />
            ))}
          </Paper>
          <Box sx={{ flex: 1, minWidth: 0, width: '100%' }} ref={panelRef}>
            {selected && current ? (
              <MappingPanel
                key={`${selected.dataSourceId}:${selected.raw?.channel ?? ''}:${selectedMapping?.id ?? 'new'}`}
                facilityId={facilityId}
                dataSourceId={selected.dataSourceId}
                raw={selected.raw}
                mapping={selectedMapping ?? undefined}
              />
            ) : (
              <Typography color="text.secondary">Choose a channel to map it.</Typography>
            )}
          </Box>
        </Stack>
      )}
      {dialog?.kind === 'add' && (
        <DataSourceDialog
          facilityId={facilityId}
          isFirst={list.length === 0}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'edit' && (
        <DataSourceDialog
          facilityId={facilityId}
          dataSource={dialog.dataSource}
          isFirst={false}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'custom' && (
        <CustomChannelDialog
          key={dialog.channel?.id ?? 'new'}
          facilityId={facilityId}
          dataSourceId={dialog.dataSourceId}
          channel={dialog.channel}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'suggest' && (
        <SuggestMappingsDialog
          facilityId={facilityId}
          dataSource={list.find((d) => d.id === dialog.dataSource.id) ?? dialog.dataSource}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'import' && (
        <ImportConfigurationDialog facilityId={facilityId} onClose={() => setDialog(null)} />
      )}
      {dialog?.kind === 'delete' && (
        <ConfirmDialog
          title={`Delete data source ${dialog.dataSource.name}?`}
          text={MESSAGES.DELETE_DATA_SOURCE_WARNING}
          confirmLabel="Delete"
          busy={remove.isPending}
          onClose={() => setDialog(null)}
          onConfirm={() =>
            remove.mutate(dialog.dataSource.id, {
              onSuccess: () => {
                if (selected?.dataSourceId === dialog.dataSource.id) setSelected(null);
                setDialog(null);
                notify.success();
              },
              onError: (e) => notify.error(undefined, e),
            })
          }
        />
      )}
    </Box>
  );
}
