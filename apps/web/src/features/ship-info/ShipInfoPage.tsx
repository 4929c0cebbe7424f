import { useEffect, useMemo, useState, type ChangeEvent } from 'react';
import { useParams } from 'react-router';
import dayjs, { type Dayjs } from 'dayjs';
import utc from 'dayjs/plugin/utc';
import timezone from 'dayjs/plugin/timezone';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import {
  Alert,
  Autocomplete,
  Avatar,
  Box,
  Button,
  Card,
  CardActions,
  CardContent,
  FormControl,
  FormHelperText,
  InputAdornment,
  InputLabel,
  MenuItem,
  Select,
  Skeleton,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import DirectionsBoatIcon from '@mui/icons-material/DirectionsBoat';
import { useQuery } from '@tanstack/react-query';
import type { Facility } from '@portal/contracts/facilities';
import { shipImageCheck, validateShipInfo } from '@portal/contracts/forms';
import { MESSAGES, SCRUBBER_SYSTEM_TYPES } from '@portal/contracts/rules';
import { SHIP_TYPE_NAMES, SHIP_TYPES } from '@portal/contracts/ship-particulars';
import { serverFieldErrors } from '../../lib/api';
import { useFleet } from '../../lib/fleet-context';
import { useNotify } from '../../lib/notifications';
import { AutomateUploadCard } from './AutomateUploadCard';
import { TransferShipDialog } from './TransferShipDialog';
import { shipQuery, useSaveShip } from './ship-info-api';

dayjs.extend(utc);
dayjs.extend(timezone);

interface FormState {
  name: string;
  imo: string;
  scrubberSystemType: string;
  numberOfScrubbers: string;
  totalEffectKW: string;
  systemManufacturer: string;
  startDate: Dayjs | null;
  endDate: Dayjs | null;
  imageBase64: string | null;
  /** The CII's particulars (ship-particulars.ts). */
  shipType: string;
  deadweightTonnes: string;
  grossTonnage: string;
}
type Field = keyof FormState;

const fromShip = (s: Facility): FormState => ({
  name: s.name,
  imo: s.imo ?? '',
  scrubberSystemType: s.scrubberSystemType ?? '',
  numberOfScrubbers: s.numberOfScrubbers === null ? '' : String(s.numberOfScrubbers),
  totalEffectKW: s.totalEffectKW === null ? '' : String(s.totalEffectKW),
  systemManufacturer: s.systemManufacturer ?? '',
  startDate: s.startDate ? dayjs.utc(s.startDate) : null,
  endDate: s.endDate ? dayjs.utc(s.endDate) : null,
  imageBase64: s.imageBase64,
  shipType: s.shipType ?? '',
  deadweightTonnes: s.deadweightTonnes === null ? '' : String(s.deadweightTonnes),
  grossTonnage: s.grossTonnage === null ? '' : String(s.grossTonnage),
});
const toValues = (f: FormState) => ({
  ...f,
  startDate: f.startDate?.isValid() ? f.startDate.format('YYYY-MM-DD') : null,
  endDate: f.endDate?.isValid() ? f.endDate.format('YYYY-MM-DD') : null,
});

const readAsDataUrl = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });

/** Ship info (/facilities/{id}/config/info): the ship's fields and image, then the Transfer ship and Automate file upload cards. */
export default function ShipInfoPage() {
  const facilityId = useParams().facilityId!;
  const ship = useQuery(shipQuery(facilityId));
  const { facilities } = useFleet();
  const save = useSaveShip(facilityId);
  const { error, success, notify } = useNotify();
  const [form, setForm] = useState<FormState | null>(null);
  const [touched, setTouched] = useState<Partial<Record<Field, boolean>>>({});
  const [manufacturerInput, setManufacturerInput] = useState('');
  const [transferring, setTransferring] = useState(false);
  const [serverErrors, setServerErrors] = useState<Partial<Record<string, string>>>({});

  useEffect(() => {
    if (ship.data) {
      setForm(fromShip(ship.data));
      setManufacturerInput(ship.data.systemManufacturer ?? '');
    }
  }, [ship.data]);

  const manufacturers = useMemo(() => {
    const names = new Set<string>();
    for (const f of facilities ?? []) if (f.systemManufacturer) names.add(f.systemManufacturer);
    if (form?.systemManufacturer) names.add(form.systemManufacturer);
    return [...names].sort((a, b) => a.localeCompare(b));
  }, [facilities, form?.systemManufacturer]);

  if (ship.isError) return <Alert severity="error">{ship.error.message || MESSAGES.SHIP_NOT_FOUND}</Alert>;
  if (!ship.data || !form) return <Skeleton variant="rounded" height={400} />;

  const errors = validateShipInfo(toValues(form));
  const valid = Object.keys(errors).length === 0;
  const shown = (field: Field) =>
    (touched[field] ? (errors as Record<string, string | undefined>)[field] : undefined) ??
    serverErrors[field];
  const set = <K extends Field>(field: K, value: FormState[K]) => {
    setForm((f) => (f ? { ...f, [field]: value } : f));
    setServerErrors((s) => (s[field] ? { ...s, [field]: undefined } : s));
  };
  const touch = (field: Field) => setTouched((t) => ({ ...t, [field]: true }));

  const onImage = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const check = shipImageCheck(file);
    // A file that breaks the rule is not used; the message says why.
    if (!check.ok) return notify(check.message, 'warning');
    set('imageBase64', await readAsDataUrl(file));
  };
  const submit = () => {
    setTouched({
      name: true,
      numberOfScrubbers: true,
      totalEffectKW: true,
      endDate: true,
      shipType: true,
      deadweightTonnes: true,
      grossTonnage: true,
    });
    if (!valid) return;
    save.mutate(toValues(form), {
      onSuccess: () => success(),
      onError: (cause) => {
        setServerErrors(serverFieldErrors(cause) ?? {});
        error(undefined, cause);
      },
    });
  };

  const text = (
    field: 'name' | 'imo' | 'numberOfScrubbers' | 'totalEffectKW' | 'deadweightTonnes' | 'grossTonnage',
    label: string,
    type = 'text',
    unit?: string,
  ) => (
    <TextField
      label={label}
      value={form[field]}
      type={type}
      onChange={(e) => set(field, e.target.value)}
      onBlur={() => touch(field)}
      error={Boolean(shown(field))}
      helperText={shown(field)}
      fullWidth
      slotProps={{
        htmlInput: {
          'data-testid': `ship-${field}`,
          ...(field === 'deadweightTonnes' || field === 'grossTonnage' ? { inputMode: 'decimal' } : {}),
        },
        ...(unit ? { input: { endAdornment: <InputAdornment position="end">{unit}</InputAdornment> } } : {}),
      }}
    />
  );
  const date = (field: 'startDate' | 'endDate', label: string) => (
    <DatePicker
      label={label}
      value={form[field]}
      onChange={(value) => set(field, value)}
      timezone="UTC"
      format="YYYY-MM-DD"
      slotProps={{
        field: { readOnly: true },
        textField: { fullWidth: true, error: Boolean(shown(field)), helperText: shown(field), name: field },
      }}
    />
  );

  return (
    <Stack spacing={3} sx={{ maxWidth: 900 }}>
      <Card variant="outlined">
        <CardContent>
          <Stack direction={{ xs: 'column', md: 'row' }} spacing={3}>
            <Stack spacing={1} sx={{ alignItems: 'center', minWidth: 200 }}>
              {form.imageBase64 ? (
                <Box
                  component="img"
                  src={form.imageBase64}
                  alt={`${form.name} image`}
                  sx={{ width: 200, height: 150, objectFit: 'cover', borderRadius: 1 }}
                />
              ) : (
                <Avatar
                  variant="rounded"
                  sx={{ width: 200, height: 150 }}
                  role="img"
                  aria-label="No ship image"
                >
                  <DirectionsBoatIcon sx={{ fontSize: 80 }} />
                </Avatar>
              )}
              <Button component="label" size="small">
                Upload image
                <input
                  hidden
                  type="file"
                  accept="image/*"
                  aria-label="Ship image"
                  onChange={(e) => void onImage(e)}
                />
              </Button>
              {form.imageBase64 && (
                <Button size="small" color="inherit" onClick={() => set('imageBase64', null)}>
                  Remove image
                </Button>
              )}
            </Stack>
            <Stack spacing={2} sx={{ flex: 1 }}>
              {text('name', 'Name')}
              {text('imo', 'IMO')}
              <FormControl fullWidth>
                <InputLabel id="scrubber-system-type">Scrubber system type</InputLabel>
                <Select
                  labelId="scrubber-system-type"
                  label="Scrubber system type"
                  value={form.scrubberSystemType}
                  onChange={(e) => set('scrubberSystemType', e.target.value)}
                >
                  {SCRUBBER_SYSTEM_TYPES.map((t) => (
                    <MenuItem key={t || 'none'} value={t}>
                      {t || <em>None</em>}
                    </MenuItem>
                  ))}
                </Select>
              </FormControl>
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                {text('numberOfScrubbers', 'Number of scrubbers', 'number')}
                {text('totalEffectKW', 'Installed power (kW)', 'number')}
              </Stack>
              <Autocomplete
                options={manufacturers}
                value={form.systemManufacturer || null}
                inputValue={manufacturerInput}
                onInputChange={(_e, value) => setManufacturerInput(value)}
                onChange={(_e, value) => set('systemManufacturer', value ?? '')}
                noOptionsText={MESSAGES.noResultsMatching(manufacturerInput)}
                onKeyDown={(e) => {
                  // Enter on a name that is not in the list creates it.
                  const typed = manufacturerInput.trim();
                  if (
                    e.key === 'Enter' &&
                    typed &&
                    !manufacturers.some((m) => m.toLowerCase() === typed.toLowerCase())
                  ) {
                    e.preventDefault();
                    set('systemManufacturer', typed);
                  }
                }}
                onBlur={() => {
                  if (!manufacturerInput.trim()) set('systemManufacturer', '');
                }}
                renderInput={(params) => <TextField {...params} label="System manufacturer" />}
              />
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                {date('startDate', 'Start date')}
                {date('endDate', 'End date')}
              </Stack>
              <Typography variant="subtitle1" component="h2" sx={{ pt: 1 }}>
                Particulars for the CII
              </Typography>
              <FormControl fullWidth error={Boolean(shown('shipType'))}>
                <InputLabel id="ship-type">Ship type</InputLabel>
                <Select
                  labelId="ship-type"
                  label="Ship type"
                  value={form.shipType}
                  onChange={(e) => set('shipType', e.target.value)}
                  onClose={() => touch('shipType')}
                  data-testid="ship-type"
                >
                  <MenuItem value="">
                    <em>Not given</em>
                  </MenuItem>
                  {SHIP_TYPES.map((t) => (
                    <MenuItem key={t} value={t}>
                      {SHIP_TYPE_NAMES[t]}
                    </MenuItem>
                  ))}
                </Select>
                <FormHelperText>
                  {shown('shipType') ?? 'The ship types of the CII reference lines (MEPC.353(78))'}
                </FormHelperText>
              </FormControl>
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                {text('deadweightTonnes', 'Deadweight (DWT)', 'text', 't')}
                {text('grossTonnage', 'Gross tonnage (GT)')}
              </Stack>
            </Stack>
          </Stack>
        </CardContent>
        <CardActions sx={{ justifyContent: 'flex-end' }}>
          <Button onClick={() => (setForm(fromShip(ship.data)), setTouched({}))}>Reset</Button>
          <Button variant="contained" disabled={save.isPending} onClick={submit}>
            Save
          </Button>
        </CardActions>
      </Card>

      <Card variant="outlined">
        <CardContent>
          <Typography variant="h6" component="h2">
            Transfer ship
          </Typography>
          <Typography variant="body2" color="text.secondary">
            Give the ship to another organization. Owner now: {ship.data.primaryOrganizationName}.
          </Typography>
        </CardContent>
        <CardActions>
          <Button color="warning" variant="outlined" onClick={() => setTransferring(true)}>
            Transfer ship
          </Button>
        </CardActions>
      </Card>

      <AutomateUploadCard ship={ship.data} />
      {transferring && <TransferShipDialog ship={ship.data} onClose={() => setTransferring(false)} />}
    </Stack>
  );
}
