import {
  MIN_LEDGER_YEAR,
  voyageCargoInputSchema,
  type DcsReportRecord,
  type FleetCii,
  type FuelAmount,
  type Voyage,
  type VoyageCargoInput,
  type VoyageCargoRecord,
} from '@portal/contracts/carbon';
import {
  CII_RATINGS,
  CONSUMERS,
  CONSUMER_NAMES,
  DCS_METHOD_NAMES,
  FUEL_TYPES,
  FUEL_TYPE_NAMES,
  type CiiRating,
  type Consumer,
} from '@portal/contracts/rules/carbon';
import { formatByFormat, formatDate, formatDateOnly, formatTonnes, NO_DATA } from '@portal/contracts/rules';
import { fieldErrors, type FieldErrors } from '@portal/contracts/forms';

/**
 * The carbon pages' display rules (the Carbon tab, the voyage page, the fleet CII card): numbers and dates by the
 * contracts' formatting rules, the fuel table, the CII gauge's bands, the fleet's order, the DCS items, the cargo form.
 */

/** A period of whole UTC days, both included, as the ledger's routes take it. */
export interface DayPeriod {
  from: string;
  to: string;
}

/** The calendar year as days: 1 January to 31 December. */
export const yearPeriod = (year: number): DayPeriod => ({ from: `${year}-01-01`, to: `${year}-12-31` });

/** The drawer's period as the days it covers (its `to` is the last millisecond of its last day). */
export const dayPeriodOf = (period: { from: Date; to: Date }): DayPeriod => ({
  from: formatDateOnly(period.from),
  to: formatDateOnly(period.to),
});

/** The years the Carbon tab offers, newest first: this year back to the sixth before it (not before 2019, DCS's first). */
export function ledgerYears(now: Date): number[] {
  const current = now.getUTCFullYear();
  const years: number[] = [];
  for (let y = current; y >= Math.max(MIN_LEDGER_YEAR, current - 6); y--) years.push(y);
  return years;
}

/** The file name the server gives the DCS export (routes.ts), for the saved download. */
export function dcsFileName(shipName: string, year: number, format: 'xlsx' | 'csv'): string {
  const base = shipName.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80) || 'ship';
  return `${base}_IMO_DCS_${year}.${format}`;
}

// ---- Numbers ----

const grouped = (value: number, decimals: number) =>
  value.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });

/** Nautical miles: 1 decimal below 100 nm, none from there, thousands grouped ("1,234 nm"). */
export function formatNm(nm: number | null | undefined): string {
  if (nm === null || nm === undefined || !Number.isFinite(nm)) return NO_DATA;
  return `${grouped(nm, Math.abs(nm) < 100 ? 1 : 0)} nm`;
}

/** Hours: 1 decimal, thousands grouped ("1,234.5 h"). */
export function formatHours(hours: number | null | undefined): string {
  if (hours === null || hours === undefined || !Number.isFinite(hours)) return NO_DATA;
  return `${grouped(hours, 1)} h`;
}

/** A CII value in g CO2 per capacity-nm, 2 decimals (the Number format). */
export const formatCii = (value: number | null | undefined): string => formatByFormat(value, 'Number');

/** A share (0..1) as a percent with 1 decimal. */
export const formatShare = (share: number | null | undefined): string =>
  share === null || share === undefined ? NO_DATA : formatByFormat(share * 100, 'Percent');

export { formatTonnes };

// ---- Voyages ----

/** A call end of a voyage as a place: "Rotterdam (NL)"; a voyage without a known port says why. */
export function portText(end: Voyage['from'], side: 'from' | 'to'): string {
  if (end) return `${end.portName} (${end.country})`;
  return side === 'from' ? 'Before the data' : 'At sea';
}

/** A voyage by its ports: "Hamburg (DE) to Rotterdam (NL)"; an end not known is left out ("From Hamburg (DE), at sea"). */
export function voyageTitle(voyage: Pick<Voyage, 'from' | 'to'>): string {
  const from = voyage.from ? portText(voyage.from, 'from') : null;
  const to = voyage.to ? portText(voyage.to, 'to') : null;
  if (from && to) return `${from} to ${to}`;
  if (from) return `From ${from}, at sea`;
  if (to) return `To ${to}, from before the data`;
  return 'At sea, from before the data';
}

/** Hours worth saying (a tenth of an hour and more): less rounds to 0.0 h, which would say nothing. */
export const worthSaying = (hours: number): boolean => hours >= 0.05;

/** All the fuel of a voyage or a period, in tonnes. */
export const fuelTonnes = (fuel: readonly FuelAmount[]): number => fuel.reduce((s, f) => s + f.tonnes, 0);

/** The hours without fuel data of a voyage or a period: the most of any flow (they run side by side). */
export const hoursWithoutFuelData = (hours: Readonly<Record<string, number>>): number =>
  Math.max(0, ...Object.values(hours));

/** The date of a voyage's departure or arrival; null when the voyage is still at sea (arrival unknown). */
export const voyageDate = (iso: string): string => formatDate(iso);

// ---- Fuel by consumer and fuel type ----

export type LedgerFuelType = FuelAmount['fuelType'];
export const UNKNOWN_FUEL_NAME = 'Fuel of unknown type';
export const fuelTypeName = (type: LedgerFuelType): string =>
  type === 'UNKNOWN' ? UNKNOWN_FUEL_NAME : FUEL_TYPE_NAMES[type];
/** The short name of a fuel type, as crews write it (a table's column; the long name is its title). */
const FUEL_TYPE_SHORT_NAMES: Record<LedgerFuelType, string> = {
  HFO: 'HFO',
  LFO: 'LFO',
  MDO_MGO: 'MDO/MGO',
  LNG: 'LNG',
  METHANOL: 'Methanol',
  UNKNOWN: 'Unknown',
};
export const fuelTypeShortName = (type: LedgerFuelType): string => FUEL_TYPE_SHORT_NAMES[type];

export interface FuelTable {
  /** The fuel types with fuel, in the order of the DCS (unknown last). */
  fuelTypes: LedgerFuelType[];
  /** One row per consumer with fuel, in the order of Appendix IX. */
  rows: {
    consumer: Consumer;
    name: string;
    /** Tonnes per fuel type of `fuelTypes`; null where the consumer burnt none of it. */
    tonnes: (number | null)[];
    /** Of them, not under way. */
    notUnderWay: number;
    total: number;
  }[];
  /** Per fuel type over all consumers. */
  totals: number[];
  total: number;
  notUnderWay: number;
}

/** The fuel as a table: consumers down, fuel types across, totals at the end of each. */
export function fuelTable(fuel: readonly FuelAmount[]): FuelTable {
  const order: LedgerFuelType[] = [...FUEL_TYPES, 'UNKNOWN'];
  const fuelTypes = order.filter((t) => fuel.some((f) => f.fuelType === t && f.tonnes !== 0));
  const rows = CONSUMERS.filter((c) => fuel.some((f) => f.consumer === c && f.tonnes !== 0)).map(
    (consumer) => {
      const lines = fuel.filter((f) => f.consumer === consumer);
      const tonnes = fuelTypes.map((t) => {
        const of = lines.filter((f) => f.fuelType === t);
        return of.length ? of.reduce((s, f) => s + f.tonnes, 0) : null;
      });
      return {
        consumer,
        name: CONSUMER_NAMES[consumer],
        tonnes,
        notUnderWay: lines.reduce((s, f) => s + f.tonnesNotUnderWay, 0),
        total: lines.reduce((s, f) => s + f.tonnes, 0),
      };
    },
  );
  const totals = fuelTypes.map((t) => fuel.filter((f) => f.fuelType === t).reduce((s, f) => s + f.tonnes, 0));
  return {
    fuelTypes,
    rows,
    totals,
    total: rows.reduce((s, r) => s + r.total, 0),
    notUnderWay: rows.reduce((s, r) => s + r.notUnderWay, 0),
  };
}

// ---- CII ----

/** The rating colours, A best (dark green) to E worst (red); text on them in CII_RATING_TEXT (WCAG AA contrast). */
export const CII_RATING_COLOURS: Record<CiiRating, string> = {
  A: '#2e7d32',
  B: '#9ccc65',
  C: '#fdd835',
  D: '#fb8c00',
  E: '#c62828',
};
export const CII_RATING_TEXT: Record<CiiRating, string> = {
  A: '#ffffff',
  B: '#000000',
  C: '#000000',
  D: '#000000',
  E: '#ffffff',
};

/** The rating a value has between the year's boundaries (G4: A below the first, ... E from the fourth on). */
export function ratingOf(value: number, boundaries: readonly [number, number, number, number]): CiiRating {
  const index = boundaries.findIndex((b) => value < b);
  return CII_RATINGS[index < 0 ? 4 : index]!;
}

export interface CiiGaugeModel {
  min: number;
  max: number;
  /** [up to this value, colour], ascending: A, B, C, D, E. */
  bands: [number, string][];
  /** Each rating's stretch of the dial, for its letter. */
  bandLabels: { from: number; to: number; label: CiiRating }[];
  /** Attained to date and projected to the year end, on the dial (clamped to its ends); null without a value. */
  needle: number | null;
  projectedNeedle: number | null;
  text: string;
}

/**
 * The CII gauge: the dial runs from a third of the B-to-D span below A's boundary to as far above E's, so A and E
 * get a stretch as wide as they look on flag State charts; each rating its colour; a needle beyond the dial stops at
 * its end (the text keeps the value). Lower is better: A on the left, E on the right.
 */
export function ciiGauge(
  boundaries: readonly [number, number, number, number],
  attained: number | null,
  projected: number | null,
): CiiGaugeModel {
  const [b1, b2, b3, b4] = boundaries;
  const margin = (b4 - b1) / 3;
  const min = Math.max(0, b1 - margin);
  const max = b4 + margin;
  const clamp = (v: number | null) => (v === null ? null : Math.min(max, Math.max(min, v)));
  const edges = [min, b1, b2, b3, b4, max];
  return {
    min,
    max,
    bands: CII_RATINGS.map((r, i) => [edges[i + 1]!, CII_RATING_COLOURS[r]] as [number, string]),
    bandLabels: CII_RATINGS.map((r, i) => ({ from: edges[i]!, to: edges[i + 1]!, label: r })),
    needle: clamp(attained),
    projectedNeedle: clamp(projected),
    text: formatCii(attained),
  };
}

/** The gauge's words for a screen reader: the values, their ratings and the boundaries. */
export function ciiGaugeText(
  boundaries: readonly [number, number, number, number],
  attained: number | null,
  rating: CiiRating | null,
  projected: number | null,
  projectedRating: CiiRating | null,
): string {
  const value = (v: number | null, r: CiiRating | null) =>
    v === null ? NO_DATA : `${formatCii(v)} (${r ?? '?'})`;
  return (
    `CII attained to date ${value(attained, rating)}, projected to the year end ${value(projected, projectedRating)}; ` +
    `A below ${formatCii(boundaries[0])}, B below ${formatCii(boundaries[1])}, C below ${formatCii(boundaries[2])}, ` +
    `D below ${formatCii(boundaries[3])}, E from there`
  );
}

// ---- The fleet ----

const worst = (rating: CiiRating | null) => (rating === null ? -1 : CII_RATINGS.indexOf(rating));

/** A ship heads for D or E when it is rated so this year or projected so at the year end. */
export const headingForDOrE = (
  ship: Pick<FleetCii['ships'][number], 'rating' | 'projectedRating'>,
): boolean => worst(ship.projectedRating) >= 3 || worst(ship.rating) >= 3;

/** The fleet card's order: the worst projected rating first, then the worst rating so far, then by name; unrated last. */
export function sortFleetCii<
  S extends Pick<FleetCii['ships'][number], 'rating' | 'projectedRating' | 'shipName'>,
>(ships: readonly S[]): S[] {
  return [...ships].sort(
    (a, b) =>
      worst(b.projectedRating) - worst(a.projectedRating) ||
      worst(b.rating) - worst(a.rating) ||
      a.shipName.localeCompare(b.shipName),
  );
}

// ---- IMO DCS ----

export interface DcsItem {
  number: string;
  item: string;
  /** The value as shown; null: the data does not give it (the missing list says why). */
  value: string | null;
}

const dcsValue = (value: number | string | null, format: (v: number) => string = String) =>
  value === null ? null : typeof value === 'number' ? format(value) : value;
const plain = (v: number) => grouped(v, 0);

/** The report's items in the order of Appendix IX (and of the export, dcs-export.ts), values as shown. */
export function dcsItems(report: DcsReportRecord): DcsItem[] {
  const items: DcsItem[] = [
    { number: '1', item: 'IMO number', value: report.imoNumber },
    {
      number: '2',
      item: 'Period of the calendar year',
      value: `${formatDate(`${report.periodStart}T00:00:00Z`)} – ${formatDate(`${report.periodEnd}T00:00:00Z`)}`,
    },
    { number: '3', item: 'Ship type', value: report.shipType },
    { number: '4', item: 'Gross tonnage (GT)', value: dcsValue(report.grossTonnage, plain) },
    { number: '5', item: 'Net tonnage (NT)', value: dcsValue(report.netTonnage, plain) },
    {
      number: '6',
      item: 'Deadweight tonnage (DWT)',
      value: dcsValue(report.deadweight, (v) => `${plain(v)} t`),
    },
    {
      number: '7.1',
      item: 'Power output of main engines',
      value: dcsValue(report.mainEnginePowerKw, (v) => `${plain(v)} kW`),
    },
    {
      number: '7.2',
      item: 'Power output of auxiliary engines',
      value: dcsValue(report.auxiliaryEnginePowerKw, (v) => `${plain(v)} kW`),
    },
    {
      number: '8',
      item: 'Attained EEDI/EEXI',
      value: dcsValue(report.eedi, (v) => `${grouped(v, 2)} g CO2/t·nm`),
    },
    { number: '9', item: 'Ice class', value: report.iceClass },
  ];
  if (report.fuel.length === 0) items.push({ number: '10', item: 'Fuel oil consumption', value: null });
  report.fuel.forEach((f, i) =>
    items.push({
      number: `10.${i + 1}`,
      item: `Fuel oil consumption: ${FUEL_TYPE_NAMES[f.fuelType]}`,
      value: formatTonnes(f.tonnes),
    }),
  );
  items.push(
    { number: '10.m', item: 'Method of collecting the fuel data', value: DCS_METHOD_NAMES[report.method] },
    { number: '11', item: 'Distance travelled (over ground)', value: formatNm(report.distanceNm) },
    { number: '12', item: 'Hours under way', value: formatHours(report.hoursUnderWay) },
  );
  report.fuelByConsumer.forEach((f, i) =>
    items.push({
      number: `13.${i + 1}`,
      item: `Per consumer: ${CONSUMER_NAMES[f.consumer]}, ${FUEL_TYPE_NAMES[f.fuelType]}`,
      value: formatTonnes(f.tonnes),
    }),
  );
  report.fuelNotUnderWay.forEach((f, i) =>
    items.push({
      number: `14.${i + 1}`,
      item: `Not under way: ${CONSUMER_NAMES[f.consumer]}, ${FUEL_TYPE_NAMES[f.fuelType]}`,
      value: formatTonnes(f.tonnes),
    }),
  );
  items.push(
    {
      number: '15',
      item: 'Onshore power supplied',
      value: dcsValue(report.shorePowerKwh, (v) => `${plain(v)} kWh`),
    },
    { number: '16', item: 'Laden distance travelled', value: dcsValue(report.ladenDistanceNm, formatNm) },
    {
      number: '17.1',
      item: 'Transport work',
      value: dcsValue(report.transportWorkTonneMiles, (v) => `${plain(v)} t·nm`),
    },
    {
      number: '17.2',
      item: 'Transport work (container ships)',
      value: dcsValue(report.transportWorkTeuMiles, (v) => `${plain(v)} TEU·nm`),
    },
  );
  return items;
}

// ---- Cargo ----

/** The cargo form as typed: the condition, and the tonnes and TEU as text (empty: not given). */
export interface CargoFormValues {
  condition: 'laden' | 'ballast' | '';
  cargoTonnes: string;
  teu: string;
}

export const CARGO_MESSAGES = {
  condition: 'Say whether the ship sailed laden or in ballast',
  cargoNumber: 'Cargo must be a number of tonnes',
  teuNumber: 'TEU must be a whole number',
} as const;

const text = (value: number | null) => (value === null ? '' : String(value));

export const cargoFormValues = (cargo: VoyageCargoRecord | null): CargoFormValues => ({
  condition: cargo ? (cargo.laden ? 'laden' : 'ballast') : '',
  cargoTonnes: text(cargo?.cargoTonnes ?? null),
  teu: text(cargo?.teu ?? null),
});

/** Empty: null; a finite number: it; anything else: undefined. */
const parse = (value: string): number | null | undefined => {
  const trimmed = value.trim().replace(/,/g, '');
  if (trimmed === '') return null;
  const number = Number(trimmed);
  return Number.isFinite(number) ? number : undefined;
};

/** The body of PUT voyages/{id}/cargo, or the messages of what is wrong (the API's own rules and words). */
export function cargoBody(
  values: CargoFormValues,
): { body: VoyageCargoInput; errors: null } | { body: null; errors: FieldErrors<keyof CargoFormValues> } {
  const errors: FieldErrors<keyof CargoFormValues> = {};
  const cargoTonnes = parse(values.cargoTonnes);
  const teu = parse(values.teu);
  if (values.condition === '') errors.condition = CARGO_MESSAGES.condition;
  if (cargoTonnes === undefined) errors.cargoTonnes = CARGO_MESSAGES.cargoNumber;
  if (teu === undefined) errors.teu = CARGO_MESSAGES.teuNumber;
  const candidate = {
    laden: values.condition === '' ? undefined : values.condition === 'laden',
    cargoTonnes: cargoTonnes ?? null,
    teu: teu ?? null,
  };
  const found = fieldErrors(voyageCargoInputSchema, candidate);
  if (found.laden) errors.condition ??= found.laden;
  if (found.cargoTonnes) errors.cargoTonnes ??= found.cargoTonnes;
  if (found.teu) errors.teu ??= found.teu;
  if (Object.keys(errors).length) return { body: null, errors };
  return { body: voyageCargoInputSchema.parse(candidate), errors: null };
}

/** The cargo as a line: "Laden, 70,000 t, 4,500 TEU (entered)"; 'Not entered' without one. */
export function cargoText(cargo: VoyageCargoRecord | null): string {
  if (!cargo) return 'Not entered';
  const parts = [cargo.laden ? 'Laden' : 'In ballast'];
  if (cargo.cargoTonnes !== null) parts.push(`${plain(cargo.cargoTonnes)} t`);
  if (cargo.teu !== null) parts.push(`${plain(cargo.teu)} TEU`);
  return `${parts.join(', ')} (${cargo.source === 'NOON_REPORT' ? 'from a noon report' : 'entered'})`;
}
