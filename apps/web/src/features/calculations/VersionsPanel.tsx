import { useState } from 'react';
import { Alert, Box, Button, Chip, ListItemText, Menu, MenuItem, Stack, Typography } from '@mui/material';
import HistoryIcon from '@mui/icons-material/History';
import { formatDateTime, versionLabel } from '@portal/contracts/rules';
import type { Calculation } from '@portal/contracts/calculations';
import { stateLabel, type Mode } from './calculation-form';
import { WhyDisabled } from './WhyDisabled';

export interface VersionsPanelProps {
  /** Saved calculations, newest first. */
  list: Calculation[];
  /** The calculation shown; undefined for a new one. */
  selected: Calculation | undefined;
  isNew: boolean;
  /** The version and revision in the heading. */
  shown: { version: number; revision: number };
  canOpenHistory: boolean;
  whyNoHistory: string | undefined;
  onMode(mode: Mode): void;
}

/** The editor's heading: the version shown, its state and validity, and the Versions menu to open an older one. */
export function VersionsPanel({
  list,
  selected,
  isNew,
  shown,
  canOpenHistory,
  whyNoHistory,
  onMode,
}: VersionsPanelProps) {
  const [historyAnchor, setHistoryAnchor] = useState<HTMLElement | null>(null);
  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ mb: 2, alignItems: 'center', flexWrap: 'wrap' }}>
      <Typography variant="h6" component="h3">
        Calculation
      </Typography>
      <Typography variant="body2" color="text.secondary" data-testid="calculation-version">
        Version {versionLabel(shown.version, shown.revision)}
      </Typography>
      {isNew || !selected ? (
        <Chip label="NEW" color="secondary" size="small" />
      ) : (
        <Chip
          label={stateLabel(selected)}
          size="small"
          color={selected.approvedOn ? 'success' : 'default'}
          variant="outlined"
        />
      )}
      {!isNew && selected?.approvedOn && (
        <Typography variant="caption" color="text.secondary">
          Valid from {formatDateTime(selected.validFrom)}{' '}
          {selected.validTo ? `to ${formatDateTime(selected.validTo)}` : 'until another is approved'}
        </Typography>
      )}
      <Box sx={{ flexGrow: 1 }} />
      <WhyDisabled reason={whyNoHistory}>
        <Button
          startIcon={<HistoryIcon />}
          disabled={!canOpenHistory}
          onClick={(e) => setHistoryAnchor(e.currentTarget)}
        >
          Versions
        </Button>
      </WhyDisabled>
      <Menu anchorEl={historyAnchor} open={Boolean(historyAnchor)} onClose={() => setHistoryAnchor(null)}>
        {list.map((c, i) => (
          <MenuItem
            key={c.id}
            selected={selected?.id === c.id}
            onClick={() => {
              setHistoryAnchor(null);
              onMode(i === 0 ? { type: 'current' } : { type: 'history', id: c.id });
            }}
          >
            <ListItemText
              primary={`Version ${versionLabel(c.version, c.revision)}${i === 0 ? ' (latest)' : ''}`}
              secondary={`${stateLabel(c)} · ${formatDateTime(c.updatedOn)}`}
            />
          </MenuItem>
        ))}
      </Menu>
    </Stack>
  );
}

/** An older version is open read-only: restore it as a new draft, or go back to the latest. */
export function HistoryNotice({ shown, onMode }: { shown: Calculation; onMode(mode: Mode): void }) {
  return (
    <Alert
      severity="info"
      sx={{ mb: 2 }}
      action={
        <Stack direction="row" spacing={1}>
          <Button size="small" onClick={() => onMode({ type: 'new', from: shown })}>
            Restore as new draft
          </Button>
          <Button size="small" onClick={() => onMode({ type: 'current' })}>
            Back to latest
          </Button>
        </Stack>
      }
    >
      Version {versionLabel(shown.version, shown.revision)} is shown read-only.
    </Alert>
  );
}
