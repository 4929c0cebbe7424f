import { useState } from 'react';
import {
  Box,
  Button,
  IconButton,
  MenuItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import {
  formatDateTime,
  parseDateOnly,
  parseTimeOnly,
  SCRUBBER_SYSTEM_TYPES,
  toDate,
} from '@portal/contracts/rules';
import type { TestInputRow, TestValue } from '@portal/contracts/calculations';
import { visuallyHidden } from '../../ui/a11y/visually-hidden';

export interface TestRow {
  timestamp: string;
  values: Record<string, string>;
}

export interface ConstantsForm {
  Facility_IMO: string;
  Facility_NumberOfScrubbers: string;
  Facility_ScrubberSystemType: string;
  Facility_InstalledPower: string;
}

/** The spec's defaults: empty IMO, 0 scrubbers, empty system type, 0 power. */
export const DEFAULT_CONSTANTS: ConstantsForm = {
  Facility_IMO: '',
  Facility_NumberOfScrubbers: '0',
  Facility_ScrubberSystemType: '',
  Facility_InstalledPower: '0',
};

/** Text of a test cell as the value the server takes: blank is null, true/false booleans, numbers as numbers. */
export function cellValue(text: string): TestValue {
  const t = text.trim();
  if (t === '') return null;
  if (/^(true|false)$/i.test(t)) return t.toLowerCase() === 'true';
  const n = Number(t.replace(',', '.'));
  return Number.isNaN(n) ? t : n;
}

export function toInputData(rows: readonly TestRow[], inputNames: readonly string[]): TestInputRow[] {
  return rows.map((r) => ({
    timestamp: r.timestamp,
    inputValues: Object.fromEntries(inputNames.map((name) => [name, cellValue(r.values[name] ?? '')])),
  }));
}

export function toConstants(c: ConstantsForm) {
  const num = (s: string) => (s.trim() === '' || Number.isNaN(Number(s)) ? 0 : Number(s));
  return {
    Facility_IMO: c.Facility_IMO,
    Facility_NumberOfScrubbers: num(c.Facility_NumberOfScrubbers),
    Facility_ScrubberSystemType: c.Facility_ScrubberSystemType,
    Facility_InstalledPower: num(c.Facility_InstalledPower),
  };
}

/** A 'YYYY.MM.DD HH:mm' text (the portal's display, UTC) as an ISO timestamp; null for any other text. */
export function parseDisplayedTimestamp(text: string): string | null {
  const [datePart, timePart, ...rest] = text.trim().split(/\s+/);
  if (!datePart || !timePart || rest.length || !/^\d{4}\.\d{2}\.\d{2}$/.test(datePart)) return null;
  const day = parseDateOnly(datePart.replaceAll('.', '-'));
  const minutes = parseTimeOnly(timePart);
  return day && minutes !== null ? new Date(day.getTime() + minutes * 60_000).toISOString() : null;
}

/**
 * A sample's timestamp: shown as 'YYYY.MM.DD HH:mm' (UTC) and, while focused, as the exact value sent to the
 * server (ISO with seconds), so editing never rounds it. A typed 'YYYY.MM.DD HH:mm' becomes ISO on leaving.
 */
function TimestampField(props: {
  value: string;
  index: number;
  disabled: boolean;
  onChange(text: string): void;
}) {
  const { value, index, disabled, onChange } = props;
  const [focused, setFocused] = useState(false);
  const shown = focused || !toDate(value) ? value : formatDateTime(value);
  return (
    <TextField
      size="small"
      variant="standard"
      fullWidth
      value={shown}
      disabled={disabled}
      onFocus={() => setFocused(true)}
      onBlur={() => {
        setFocused(false);
        const iso = parseDisplayedTimestamp(value);
        if (iso) onChange(iso);
      }}
      onChange={(e) => onChange(e.target.value)}
      slotProps={{ htmlInput: { 'aria-label': `Timestamp ${index + 1}`, title: value } }}
    />
  );
}

export function TestDataEditor(props: {
  rows: TestRow[];
  onRows(rows: TestRow[]): void;
  inputNames: readonly string[];
  constants: ConstantsForm;
  onConstants(c: ConstantsForm): void;
  disabled: boolean;
}) {
  const { rows, onRows, inputNames, constants, onConstants, disabled } = props;
  const setCell = (i: number, name: string | null, text: string) =>
    onRows(
      rows.map((r, j) =>
        j !== i
          ? r
          : name === null
            ? { ...r, timestamp: text }
            : { ...r, values: { ...r.values, [name]: text } },
      ),
    );
  const addRow = () => {
    const last = rows[rows.length - 1];
    const next =
      last && !Number.isNaN(Date.parse(last.timestamp))
        ? new Date(Date.parse(last.timestamp) + 3_600_000).toISOString()
        : new Date().toISOString();
    onRows([...rows, { timestamp: next, values: {} }]);
  };
  return (
    <Box>
      <Typography variant="subtitle2" component="h4" sx={{ mb: 1 }}>
        Test data
      </Typography>
      <TableContainer>
        <Table size="small" aria-label="Test data">
          <TableHead>
            <TableRow>
              <TableCell>Timestamp (UTC)</TableCell>
              {inputNames.map((name) => (
                <TableCell key={name}>{name}</TableCell>
              ))}
              <TableCell>
                <Box component="span" sx={visuallyHidden}>
                  Remove
                </Box>
              </TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row, i) => (
              <TableRow key={i}>
                <TableCell sx={{ minWidth: { xs: 150, sm: 200 } }}>
                  <TimestampField
                    value={row.timestamp}
                    index={i}
                    disabled={disabled}
                    onChange={(text) => setCell(i, null, text)}
                  />
                </TableCell>
                {inputNames.map((name) => (
                  <TableCell key={name} sx={{ minWidth: 100 }}>
                    <TextField
                      size="small"
                      variant="standard"
                      value={row.values[name] ?? ''}
                      disabled={disabled}
                      onChange={(e) => setCell(i, name, e.target.value)}
                      slotProps={{ htmlInput: { 'aria-label': `${name} ${i + 1}` } }}
                    />
                  </TableCell>
                ))}
                <TableCell padding="checkbox">
                  <IconButton
                    size="small"
                    aria-label={`Remove sample ${i + 1}`}
                    disabled={disabled}
                    onClick={() => onRows(rows.filter((_, j) => j !== i))}
                  >
                    <DeleteOutlineIcon fontSize="small" />
                  </IconButton>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <Button size="small" onClick={addRow} disabled={disabled} sx={{ mt: 1 }}>
        Add sample
      </Button>
      <Typography variant="subtitle2" component="h4" sx={{ mt: 2, mb: 1 }}>
        Facility constants
      </Typography>
      <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
        <TextField
          size="small"
          label="Facility_IMO"
          value={constants.Facility_IMO}
          disabled={disabled}
          onChange={(e) => onConstants({ ...constants, Facility_IMO: e.target.value })}
        />
        <TextField
          size="small"
          type="number"
          label="Facility_NumberOfScrubbers"
          value={constants.Facility_NumberOfScrubbers}
          disabled={disabled}
          onChange={(e) => onConstants({ ...constants, Facility_NumberOfScrubbers: e.target.value })}
        />
        <TextField
          size="small"
          select
          label="Facility_ScrubberSystemType"
          value={constants.Facility_ScrubberSystemType}
          disabled={disabled}
          onChange={(e) => onConstants({ ...constants, Facility_ScrubberSystemType: e.target.value })}
          sx={{ minWidth: 220 }}
          slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
        >
          {SCRUBBER_SYSTEM_TYPES.map((t) => (
            <MenuItem key={t || 'none'} value={t}>
              {t || <em>None</em>}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          size="small"
          type="number"
          label="Facility_InstalledPower"
          value={constants.Facility_InstalledPower}
          disabled={disabled}
          onChange={(e) => onConstants({ ...constants, Facility_InstalledPower: e.target.value })}
        />
      </Stack>
    </Box>
  );
}
