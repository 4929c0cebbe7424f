import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import {
  Autocomplete,
  Button,
  Checkbox,
  FormControl,
  FormControlLabel,
  FormLabel,
  Grid,
  MenuItem,
  Paper,
  Radio,
  RadioGroup,
  TextField,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import type { Dayjs } from 'dayjs';
import type { ExportResolution } from '@portal/contracts/exports';
import { customPeriod } from '@portal/contracts/rules';
import { useFleet } from '../../lib/fleet-context';
import { useNotify } from '../../lib/notifications';
import { exportReportQuery, exportReportsQuery } from './export-reports-api';
import { useDownloadExport } from './export-api';
import { pickerDayText, toPickerValue, UtcDatePicker } from '../../ui/dates/pickers';

/** /report-config/data-export?reportCode&facilityId: report, fields, ships, period and resolution; downloads export.xlsx. */
export default function DataExportPage() {
  const [params] = useSearchParams();
  const { period, facilities } = useFleet();
  const notify = useNotify();
  const reports = useQuery(exportReportsQuery());
  const [reportCode, setReportCode] = useState(params.get('reportCode') ?? '');
  const report = useQuery(exportReportQuery(reportCode));
  const [fieldNames, setFieldNames] = useState<string[]>([]);
  const initialShip = params.get('facilityId');
  const [shipIds, setShipIds] = useState<string[] | null>(initialShip ? [initialShip] : null);
  const [fromDay, setFrom] = useState<Dayjs | null>(() => toPickerValue(period.from));
  const [toDay, setTo] = useState<Dayjs | null>(() => toPickerValue(period.to));
  const from = pickerDayText(fromDay);
  const to = pickerDayText(toDay);
  const [resolution, setResolution] = useState<ExportResolution>('hour');
  const [fullPrecision, setFullPrecision] = useState(false);
  const download = useDownloadExport();

  const ships = facilities ?? [];
  const chosenShips = shipIds ?? ships.map((s) => s.id);
  const fieldOptions = useMemo(() => (report.data?.fields ?? []).map((f) => f.name), [report.data]);
  const validPeriod = Boolean(from && to && from <= to);
  const canDownload = Boolean(reportCode) && chosenShips.length > 0 && validPeriod && !download.isPending;

  const submit = () => {
    if (!from || !to) return;
    const p = customPeriod(from, to);
    download.mutate(
      {
        reportCode,
        fieldNames: fieldNames.length ? fieldNames : undefined,
        facilityIds: chosenShips,
        from: p.from.toISOString(),
        to: p.to.toISOString(),
        resolution,
        ...(fullPrecision ? { fullPrecision } : {}),
      },
      { onError: (error) => notify.error(undefined, error) },
    );
  };

  return (
    <Paper sx={{ p: 3 }} data-testid="data-export">
      <Typography variant="h6" component="h2" gutterBottom>
        Export data
      </Typography>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 6 }}>
          <TextField
            select
            fullWidth
            label="Report"
            value={reports.data?.some((r) => r.id === reportCode) ? reportCode : ''}
            onChange={(e) => {
              setReportCode(e.target.value);
              setFieldNames([]);
            }}
            slotProps={{ htmlInput: { 'data-testid': 'export-report' } }}
          >
            {(reports.data ?? []).map((r) => (
              <MenuItem key={r.id} value={r.id}>
                {r.name} ({r.id})
              </MenuItem>
            ))}
          </TextField>
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <Autocomplete
            multiple
            options={fieldOptions}
            value={fieldNames}
            onChange={(_e, v) => setFieldNames(v)}
            disabled={!reportCode}
            renderInput={(p) => (
              <TextField {...p} label="Fields" helperText="All distinct values when none is chosen" />
            )}
          />
        </Grid>
        <Grid size={12}>
          <Autocomplete
            multiple
            disableCloseOnSelect
            options={ships.map((s) => s.id)}
            getOptionLabel={(id) => ships.find((s) => s.id === id)?.name ?? id}
            value={chosenShips}
            onChange={(_e, v) => setShipIds(v)}
            renderInput={(p) => (
              <TextField
                {...p}
                label="Ships"
                error={chosenShips.length === 0}
                helperText={chosenShips.length === 0 ? 'Choose at least one ship' : undefined}
              />
            )}
          />
          <FormControlLabel
            control={
              <Checkbox
                checked={chosenShips.length === ships.length && ships.length > 0}
                onChange={(e) => setShipIds(e.target.checked ? ships.map((s) => s.id) : [])}
              />
            }
            label="Select all"
          />
        </Grid>
        <Grid size={{ xs: 6, md: 3 }}>
          <UtcDatePicker
            label="From (UTC)"
            value={fromDay}
            onChange={setFrom}
            slotProps={{ textField: { fullWidth: true, error: !validPeriod } }}
          />
        </Grid>
        <Grid size={{ xs: 6, md: 3 }}>
          <UtcDatePicker
            label="To (UTC)"
            value={toDay}
            onChange={setTo}
            slotProps={{
              textField: {
                fullWidth: true,
                error: !validPeriod,
                helperText: validPeriod ? undefined : 'From must be before to',
              },
            }}
          />
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <FormControl>
            <FormLabel>Resolution</FormLabel>
            <RadioGroup
              row
              value={resolution}
              onChange={(e) => setResolution(e.target.value as ExportResolution)}
            >
              <FormControlLabel value="hour" control={<Radio />} label="Hour" />
              <FormControlLabel value="day" control={<Radio />} label="Day" />
            </RadioGroup>
          </FormControl>
        </Grid>
        <Grid size={12}>
          <FormControlLabel
            control={
              <Checkbox checked={fullPrecision} onChange={(e) => setFullPrecision(e.target.checked)} />
            }
            label="Full precision: beside each rounded value, a column with the value as stored"
            data-testid="export-full-precision"
          />
        </Grid>
        <Grid size={12}>
          <Button variant="contained" disabled={!canDownload} onClick={submit} data-testid="export-download">
            {download.isPending ? 'Preparing…' : 'Download'}
          </Button>
        </Grid>
      </Grid>
    </Paper>
  );
}
