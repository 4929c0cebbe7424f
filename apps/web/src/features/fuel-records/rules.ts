import {
  bdnInputSchema,
  tankSoundingInputSchema,
  type Bdn,
  type BdnInput,
  type NoonReportImportResult,
  type ReconciliationResult,
  type TankSoundingInput,
} from '@portal/contracts/carbon';
import { nameProblem, type FieldErrors } from '@portal/contracts/forms';
import { FUEL_TYPES, type FuelType } from '@portal/contracts/rules/carbon';
import type { Port } from '@portal/contracts/ports';

/**
 * The fuel records' form and display rules (bunker delivery notes, tank soundings, the reconciliation, the noon report
 * import): pure functions over the API's shapes (packages/contracts/src/carbon.ts). The numbers are checked by the
 * API's own schemas, so a field shows the message the API would give.
 */

// ---- Bunker delivery notes ----

/** The dialog's values as typed: numbers as text, the port chosen from the list (its UN/LOCODE) or typed. */
export interface BdnFormValues {
  deliveredAt: string | null;
  /** The UN/LOCODE of a port chosen from the list. */
  portId: string | null;
  /** The port as written on the note when it is not chosen from the list (or as the list named it). */
  portName: string;
  fuelType: FuelType | '';
  massTonnes: string;
  sulfurPercent: string;
  lcvMjPerKg: string;
  densityKgM3: string;
  bdnNumber: string;
}
export type BdnField = keyof BdnFormValues;

export const BDN_FORM_MESSAGES = {
  deliveredAt: 'Enter the date and time of the delivery (UTC)',
  fuelType: 'Choose the fuel delivered',
  massRequired: 'Enter the mass delivered in t',
  sulfurRequired: 'Enter the sulfur content in % m/m',
  number: 'Must be a number',
} as const;
const M = BDN_FORM_MESSAGES;

export const emptyBdnForm = (now = new Date()): BdnFormValues => ({
  deliveredAt: now.toISOString(),
  portId: null,
  portName: '',
  fuelType: '',
  massTonnes: '',
  sulfurPercent: '',
  lcvMjPerKg: '',
  densityKgM3: '',
  bdnNumber: '',
});

const text = (n: number | null) => (n === null ? '' : String(n));

export const bdnFormOf = (note: Bdn): BdnFormValues => ({
  deliveredAt: note.deliveredAt,
  portId: note.portId,
  portName: note.portName ?? '',
  fuelType: note.fuelType,
  massTonnes: text(note.massTonnes),
  sulfurPercent: text(note.sulfurPercent),
  lcvMjPerKg: text(note.lcvMjPerKg),
  densityKgM3: text(note.densityKgM3),
  bdnNumber: note.bdnNumber ?? '',
});

/** Text as a number: blank is null, anything but a finite number (a comma as the decimal mark is one) is NaN. */
export function numberOf(value: string): number | null {
  const t = value.trim().replace(/\s+/g, '');
  if (t === '') return null;
  const n = Number(/^-?\d+,\d+$/.test(t) ? t.replace(',', '.') : t);
  return Number.isFinite(n) ? n : NaN;
}

/**
 * What is wrong with the note as typed (each field's first message: ours for what is missing or not a number, the
 * API's for the rest), and the body to send when nothing is. A port typed and not chosen is sent as the note's port
 * name; one chosen from the list as its UN/LOCODE, with the name the list gave.
 */
export function checkBdnForm(values: BdnFormValues): {
  errors: FieldErrors<BdnField>;
  body: BdnInput | null;
} {
  const errors: FieldErrors<BdnField> = {};
  const numbers = {} as Record<'massTonnes' | 'sulfurPercent' | 'lcvMjPerKg' | 'densityKgM3', number | null>;
  for (const field of ['massTonnes', 'sulfurPercent', 'lcvMjPerKg', 'densityKgM3'] as const) {
    const n = numberOf(values[field]);
    if (Number.isNaN(n)) errors[field] = M.number;
    numbers[field] = n;
  }
  if (!values.deliveredAt) errors.deliveredAt = M.deliveredAt;
  if (!values.fuelType) errors.fuelType = M.fuelType;
  if (numbers.massTonnes === null) errors.massTonnes = M.massRequired;
  if (numbers.sulfurPercent === null) errors.sulfurPercent = M.sulfurRequired;
  const portName = values.portName.trim();
  const bdnNumber = values.bdnNumber.trim();
  const portProblem = portName ? nameProblem(portName) : null;
  if (portProblem) errors.portName = portProblem;
  const numberProblem = bdnNumber ? nameProblem(bdnNumber) : null;
  if (numberProblem) errors.bdnNumber = numberProblem;
  const candidate = {
    deliveredAt: values.deliveredAt ?? '',
    portId: values.portId,
    portName: portName || null,
    fuelType: values.fuelType,
    massTonnes: numbers.massTonnes ?? 0,
    sulfurPercent: numbers.sulfurPercent ?? 0,
    lcvMjPerKg: numbers.lcvMjPerKg,
    densityKgM3: numbers.densityKgM3,
    bdnNumber: bdnNumber || null,
  };
  const parsed = bdnInputSchema.safeParse(candidate);
  if (!parsed.success)
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0] ?? '') as BdnField;
      errors[key] ??= issue.message;
    }
  return { errors, body: parsed.success && Object.keys(errors).length === 0 ? parsed.data : null };
}

/** A port of the list as the port field shows it: name, UN/LOCODE and country. */
export const portLabel = (port: Pick<Port, 'name' | 'locode' | 'country'>) =>
  `${port.name}${port.locode ? ` (${port.locode})` : ''}, ${port.country}`;

/** The port of a note as the list shows it: its name (as the note or the port list gave it) and UN/LOCODE. */
export function notePortText(note: Pick<Bdn, 'portId' | 'portName'>): string {
  if (note.portName && note.portId) return `${note.portName} (${note.portId})`;
  return note.portName ?? note.portId ?? '—';
}

// ---- Tank soundings ----

export interface SoundingFormValues {
  at: string | null;
  fuelType: FuelType | '';
  robTonnes: string;
}
export type SoundingField = keyof SoundingFormValues;

export const SOUNDING_FORM_MESSAGES = {
  at: 'Enter the date and time of the sounding (UTC)',
  fuelType: 'Choose the fuel sounded',
  robRequired: 'Enter the fuel remaining on board in t',
} as const;

export function checkSoundingForm(values: SoundingFormValues): {
  errors: FieldErrors<SoundingField>;
  body: TankSoundingInput | null;
} {
  const errors: FieldErrors<SoundingField> = {};
  const rob = numberOf(values.robTonnes);
  if (!values.at) errors.at = SOUNDING_FORM_MESSAGES.at;
  if (!values.fuelType) errors.fuelType = SOUNDING_FORM_MESSAGES.fuelType;
  if (rob === null) errors.robTonnes = SOUNDING_FORM_MESSAGES.robRequired;
  else if (Number.isNaN(rob)) errors.robTonnes = M.number;
  const parsed = tankSoundingInputSchema.safeParse({
    at: values.at ?? '',
    fuelType: values.fuelType,
    robTonnes: rob ?? 0,
  });
  if (!parsed.success)
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0] ?? '') as SoundingField;
      errors[key] ??= issue.message;
    }
  return { errors, body: parsed.success && Object.keys(errors).length === 0 ? parsed.data : null };
}

// ---- Display ----

/** Tonnes with up to 1 decimal ('1,234.5 t'); '—' for nothing. */
export function tonnesText(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  return `${value.toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 })} t`;
}

/** A difference in % with its sign and 1 decimal ('+12.3 %', '−4.0 %', '0.0 %'); '—' when not compared. */
export function differenceText(percent: number | null): string {
  if (percent === null || !Number.isFinite(percent)) return '—';
  const rounded = Math.round(percent * 10) / 10;
  const abs = Math.abs(rounded).toLocaleString('en-US', {
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
  });
  return `${rounded > 0 ? '+' : rounded < 0 ? '−' : ''}${abs} %`;
}

type Row = ReconciliationResult['rows'][number];

export type ReconciliationState =
  { kind: 'flagged'; text: string } | { kind: 'within'; text: string } | { kind: 'missing'; text: string };

/**
 * What a row of the reconciliation says: above the threshold (flagged), within it, or what is missing to compare
 * (a sounding within 24 h of the period's start or end; fuel bunkered but none measured cannot be compared either).
 */
export function reconciliationState(
  row: Pick<Row, 'flagged' | 'missing' | 'differencePercent'>,
  threshold: number,
): ReconciliationState {
  const limit = `${threshold.toLocaleString('en-US')} %`;
  if (row.flagged) return { kind: 'flagged', text: `Above ${limit}` };
  if (row.differencePercent !== null) return { kind: 'within', text: `Within ${limit}` };
  const start = row.missing.includes('robStart');
  const end = row.missing.includes('robEnd');
  if (start && end) return { kind: 'missing', text: 'No sounding within 24 h of the start and the end' };
  if (start) return { kind: 'missing', text: 'No sounding within 24 h of the start' };
  if (end) return { kind: 'missing', text: 'No sounding within 24 h of the end' };
  return { kind: 'missing', text: 'Nothing to compare with' };
}

/** The fuel types in the ledger's order, for the dialogs' lists. */
export const FUEL_TYPE_CHOICES: readonly FuelType[] = FUEL_TYPES;

/** The period's days as the reconciliation asks for them: both included; null when the end is before the start. */
export function periodQuery(from: string | null, to: string | null): { from: string; to: string } | null {
  if (!from || !to || from > to) return null;
  return { from, to };
}

/** The noon report import's answer in one sentence; its problems are listed apart. */
export function noonImportSummary(result: NoonReportImportResult): string {
  const rows = `${result.rows} ${result.rows === 1 ? 'report' : 'reports'} read`;
  const voyages = `${result.voyagesUpdated} ${result.voyagesUpdated === 1 ? 'voyage' : 'voyages'} updated`;
  const problems = result.problems.length
    ? `, ${result.problems.length} ${result.problems.length === 1 ? 'line' : 'lines'} not used`
    : '';
  return `${rows}, ${voyages}${problems}.`;
}
