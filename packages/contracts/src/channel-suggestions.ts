import type { ChannelDataType } from './rules/constants';
import { unitKind, type UnitKind } from './channel-units';
import { CHANNEL_CONSUMER_NAMES, type ChannelConsumer, type ChannelFuelType } from './fuel-channels';

export { unitKind, type UnitKind } from './channel-units';

/**
 * Suggested mappings: which column of a logger file is which measurement field. Pure functions; the API answers
 * them for a data source's sample (or an uploaded) file, the channels screen shows them.
 *
 * A column is scored against every field by
 * - its name: the field's known aliases (below), the organization's own aliases and the field's name, each compared
 *   after normalising (case, separators, camel case, numbers of units such as ME1 or EGCS1, common abbreviations:
 *   FO = fuel oil, ME = main engine, EGCS/EGC = scrubber, sulphur = sulfur, lat = latitude, WW = washwater ...);
 * - its unit, from the header (`[ppm]`, `(kg/h)`, `_KGH`) or the unit row, which must agree with the field's;
 * - the range of its sample values, which must be physically possible for the field (latitude within ±90, a
 *   Boolean 0 or 1, pH 0 to 14, CO2 0 to 25 %).
 * Each column goes to at most one field, the most confident pair first.
 */

export interface KnownField {
  unit: UnitKind;
  /** Values a working sensor can show; a sample outside makes the column an unlikely match. */
  range?: [number, number];
  /** An on/off channel: values 0 and 1 only. */
  boolean?: true;
  /** Names loggers give the channel, as a person would write them. */
  aliases: string[];
  /**
   * A fuel flow: the consumer it feeds. A column whose name says another consumer (AE for the main engine's flow) is
   * an unlikely match, and a proposal carries the consumer for the mapping (the carbon ledger's, fuel-channels.ts).
   */
  consumer?: ChannelConsumer;
}

/** The measurement fields the portal knows (DOMAIN.md), with the names loggers give them. */
export const KNOWN_FIELDS: Record<string, KnownField> = {
  /** DOMAIN.md: the fuel to the combustion units connected to the scrubber, in practice the main engine's. */
  FUEL_FLOW: {
    unit: 'kg/h',
    range: [0, 200_000],
    consumer: 'MAIN_ENGINE',
    aliases: [
      'fuel flow',
      'fuel oil flow',
      'fuel mass flow',
      'fuel consumption',
      'fuel oil consumption',
      'foc',
    ],
  },
  /** The carbon ledger's (issue 31): the auxiliary engines' (generators') fuel. */
  AE_FUEL_FLOW: {
    unit: 'kg/h',
    range: [0, 20_000],
    consumer: 'AUX_ENGINE',
    aliases: [
      'auxiliary fuel flow',
      'auxiliary fuel consumption',
      'auxiliary fuel mass flow',
      'auxiliary foc',
      'generator fuel flow',
      'generator fuel consumption',
    ],
  },
  /** The carbon ledger's: the oil-fired boilers' fuel. */
  BOILER_FUEL_FLOW: {
    unit: 'kg/h',
    range: [0, 10_000],
    consumer: 'BOILER',
    aliases: ['boiler fuel flow', 'boiler fuel consumption', 'boiler fuel mass flow', 'boiler foc'],
  },
  /** The carbon ledger's: the fuel in use as a code, 0 HFO, 1 LFO, 2 MDO/MGO, 3 LNG, 4 methanol (fuel-channels.ts). */
  FUEL_TYPE: {
    unit: 'none',
    range: [0, 4],
    aliases: [
      'fuel type',
      'fuel in use',
      'fuel type in use',
      'fuel grade',
      'fuel selected',
      'fuel selection',
    ],
  },
  FUEL_SULFUR: {
    unit: '%',
    range: [0, 5],
    aliases: ['fuel sulfur', 'sulfur', 'fuel sulfur content', 'sulfur content', 'fuel oil sulfur'],
  },
  ENGINE_LOAD: {
    unit: '%',
    range: [0, 130],
    aliases: ['engine load', 'main engine load', 'load'],
  },
  SO2_PPM: {
    unit: 'ppm',
    range: [0, 5_000],
    aliases: ['so2', 'so2 outlet', 'so2 concentration', 'scrubber so2', 'so2 outlet concentration'],
  },
  CO2_PCT: {
    unit: '%',
    range: [0, 25],
    aliases: ['co2', 'co2 outlet', 'co2 concentration', 'scrubber co2'],
  },
  SCRUBBER_RUNNING: {
    unit: 'none',
    boolean: true,
    aliases: ['scrubber running', 'scrubber on', 'scrubber in operation', 'scrubber status running'],
  },
  SCRUBBER_POWER: {
    unit: 'kW',
    range: [0, 20_000],
    aliases: ['scrubber power', 'scrubber power consumption', 'scrubber electrical power'],
  },
  LATITUDE: { unit: 'deg', range: [-90, 90], aliases: ['latitude', 'gps latitude'] },
  LONGITUDE: { unit: 'deg', range: [-180, 180], aliases: ['longitude', 'gps longitude'] },
  WASHWATER_PH: {
    unit: 'pH',
    range: [0, 14],
    aliases: ['washwater ph', 'washwater outlet ph', 'ph', 'outlet ph', 'discharge ph'],
  },
  WASHWATER_PAH: {
    unit: 'ug/L',
    range: [0, 10_000],
    aliases: ['washwater pah', 'washwater outlet pah', 'pah', 'outlet pah', 'phenanthrene'],
  },
  WASHWATER_TURBIDITY: {
    unit: 'NTU',
    range: [0, 4_000],
    aliases: ['washwater turbidity', 'washwater outlet turbidity', 'turbidity', 'outlet turbidity'],
  },
  WASHWATER_PH_INLET: {
    unit: 'pH',
    range: [0, 14],
    aliases: [
      'washwater inlet ph',
      'inlet ph',
      'seawater ph',
      'ww in ph',
      'ww inlet ph',
      'ph in',
      'sea water ph',
    ],
  },
  WASHWATER_PAH_INLET: {
    unit: 'ug/L',
    range: [0, 10_000],
    aliases: ['washwater inlet pah', 'inlet pah', 'seawater pah', 'ww in pah', 'ww inlet pah', 'pah in'],
  },
  WASHWATER_TURBIDITY_INLET: {
    unit: 'NTU',
    range: [0, 4_000],
    aliases: [
      'washwater inlet turbidity',
      'inlet turbidity',
      'seawater turbidity',
      'ww in turb',
      'ww inlet turbidity',
      'turbidity in',
    ],
  },
  WASHWATER_FLOW: {
    unit: 't/h',
    range: [0, 20_000],
    aliases: [
      'washwater flow',
      'scrubber washwater flow',
      'washwater flow rate',
      'ww flow',
      'wash water flow',
    ],
  },
  SCRUBBER_MODE: {
    unit: 'none',
    range: [0, 3],
    aliases: [
      'scrubber mode',
      'scrubber operating mode',
      'mode',
      'egcs mode',
      'loop mode',
      'open closed loop',
      'scrubber mode selection',
    ],
  },
};

const CONSUMER_WORDS: Record<ChannelConsumer, string> = {
  MAIN_ENGINE: 'main engine',
  AUX_ENGINE: 'auxiliary engines',
  BOILER: 'boiler',
  OTHER: `${CHANNEL_CONSUMER_NAMES.OTHER.toLowerCase()} consumers`,
};

/** A proposal at least this confident is accepted by "Accept all" without a look. */
export const ACCEPT_CONFIDENCE = 0.7;
/** Below this a match is no proposal at all. */
export const PROPOSE_CONFIDENCE = 0.35;

// ---- units

/** Unit codes loggers put at the end of a name (`ME1_FO_FLOW_KGH`, `SO2_OUT_PPM`, `SW_T_C`). */
const NAME_UNIT_CODES = new Set([
  'kgh',
  'pct',
  'ppm',
  'kw',
  'deg',
  'degc',
  'ugl',
  'ntu',
  'm3h',
  'bar',
  'mbar',
  'kn',
  'rpm',
  'lh',
  'c',
]);

// ---- names

/** Abbreviations and spellings, word by word, to one word. */
const WORDS: Record<string, string> = {
  fo: 'fuel',
  hfo: 'fuel',
  me: 'engine',
  eng: 'engine',
  egcs: 'scrubber',
  egc: 'scrubber',
  scr: 'scrubber',
  scrub: 'scrubber',
  sulphur: 'sulfur',
  sulfr: 'sulfur',
  lat: 'latitude',
  lon: 'longitude',
  lng: 'longitude',
  long: 'longitude',
  ww: 'washwater',
  turb: 'turbidity',
  pwr: 'power',
  run: 'running',
  operation: 'running',
  operating: 'running',
  on: 'running',
  out: 'outlet',
  disch: 'outlet',
  discharge: 'outlet',
  overboard: 'outlet',
  in: 'inlet',
  temperature: 'temp',
  press: 'pressure',
  cons: 'consumption',
  cont: 'content',
  conc: 'concentration',
  spd: 'speed',
  hdg: 'heading',
  electric: 'electrical',
  sel: 'mode',
  // Consumers of fuel (the carbon ledger's): auxiliary engines are the generators.
  ae: 'auxiliary',
  aux: 'auxiliary',
  dg: 'auxiliary',
  ge: 'auxiliary',
  gen: 'auxiliary',
  genset: 'auxiliary',
  gensets: 'auxiliary',
  generator: 'auxiliary',
  generators: 'auxiliary',
  blr: 'boiler',
  boilers: 'boiler',
  // A fuel named by its grade is fuel.
  hsfo: 'fuel',
  vlsfo: 'fuel',
  ulsfo: 'fuel',
  ifo: 'fuel',
  lfo: 'fuel',
  mgo: 'fuel',
  lsmgo: 'fuel',
  mdo: 'fuel',
  methanol: 'fuel',
  meoh: 'fuel',
};

/** Two words that mean one. */
const PHRASES: [string, string, string][] = [
  ['fuel', 'oil', 'fuel'],
  ['aux', 'boiler', 'boiler'],
  ['auxiliary', 'boiler', 'boiler'],
  ['aux', 'engine', 'auxiliary'],
  ['auxiliary', 'engine', 'auxiliary'],
  ['diesel', 'generator', 'auxiliary'],
  ['gas', 'oil', 'fuel'],
  ['diesel', 'oil', 'fuel'],
  ['main', 'engine', 'engine'],
  ['wash', 'water', 'washwater'],
  ['sea', 'water', 'seawater'],
];

/** Words that say nothing about which channel it is. */
const NOISE = new Set([
  'gps',
  'gnss',
  'nav',
  'pos',
  'position',
  'main',
  'value',
  'pv',
  'actual',
  'act',
  'the',
  'of',
]);

/** Letters-and-digits words whose digits are part of the name, not a unit number (SO2, CO2, NOx is letters only). */
const KEEP_DIGITS = new Set(['so', 'co', 'no', 'h', 'o', 'ch', 'm']);

export interface NormalisedName {
  /** The words of the name, normalised (order kept, no repeats). */
  words: string[];
  /** The unit written in the name (`[ppm]`, `(kg/h)`, `_KGH`), as written, or null. */
  unit: string | null;
}

/** The words and the unit of a channel name as a logger writes it. */
export function normaliseName(name: string): NormalisedName {
  let unit: string | null = null;
  // A unit in brackets or parentheses, the last one of the name.
  const bracket = /\s*(?:\[([^\]]*)\]|\(([^)]*)\))\s*$/.exec(name);
  let text = name;
  if (bracket) {
    unit = (bracket[1] ?? bracket[2] ?? '').trim();
    text = name.slice(0, bracket.index);
  }
  text = text
    .replace(/pH(?![a-z])/g, ' ph ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([0-9])([A-Z][a-z])/g, '$1 $2');
  const written = text.split(/[^A-Za-z0-9%µ³°]+/).filter((w) => w !== '');
  let raw = written.map((w) => w.toLowerCase());
  // A unit code at the end of a name with other words (snake and dotted names), as written.
  const last = raw[raw.length - 1];
  if (unit === null && raw.length > 1 && last !== undefined && NAME_UNIT_CODES.has(last)) {
    unit = written[written.length - 1]!; // as long as raw
    raw = raw.slice(0, -1);
  }
  const words: string[] = [];
  for (let i = 0; i < raw.length; i++) {
    let word = raw[i]!; // i < length
    const next = raw[i + 1];
    const phrase = PHRASES.find(([a, b]) => a === word && b === next);
    if (phrase) {
      word = phrase[2];
      i++;
    }
    const numbered = /^([a-z]+)(\d+)$/.exec(word);
    if (numbered && !KEEP_DIGITS.has(numbered[1]!)) word = numbered[1]!;
    if (/^\d+$/.test(word)) continue;
    word = WORDS[word] ?? word;
    if (NOISE.has(word) || words.includes(word)) continue;
    words.push(word);
  }
  return { words, unit };
}

/** The consumer a fuel flow column's name says: AE/DG/generator, boiler, ME/main engine, incinerator; else null. */
export function consumerInName(name: string): ChannelConsumer | null {
  const { words } = normaliseName(name);
  if (words.includes('auxiliary')) return 'AUX_ENGINE';
  if (words.includes('boiler')) return 'BOILER';
  if (words.includes('engine')) return 'MAIN_ENGINE';
  if (words.some((w) => w === 'incinerator' || w === 'igg' || w === 'igs')) return 'OTHER';
  return null;
}

/**
 * The fuel a column's name says, by its grade or kind (HFO, HSFO, VLSFO, IFO: heavy fuel oil; LFO; MGO, LSMGO,
 * MDO, gas oil, DMA: diesel/gas oil; LNG; methanol, MeOH); null when it says none or two. ULSFO is not named: its
 * grade (distillate or residual) decides, which the name does not say.
 */
export function fuelTypeInName(name: string): ChannelFuelType | null {
  const text = name
    .replace(/\s*(?:\[[^\]]*\]|\([^)]*\))\s*$/, '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
  const words = text.split(/[^a-z0-9]+/).filter((w) => w !== '');
  const found = new Set<ChannelFuelType>();
  words.forEach((raw, i) => {
    const word = /^([a-z]+)\d*$/.exec(raw)?.[1] ?? raw;
    if (['hfo', 'hsfo', 'vlsfo', 'ifo', 'rmg', 'rme', 'rmk'].includes(word)) found.add('HFO');
    else if (word === 'lfo') found.add('LFO');
    else if (['mgo', 'lsmgo', 'ulsmgo', 'mdo', 'dma', 'dmb', 'dmz'].includes(word)) found.add('MDO_MGO');
    else if (word === 'gas' && (words[i + 1] === 'oil' || words[i - 1] === 'marine')) found.add('MDO_MGO');
    else if (word === 'diesel' && words[i + 1] === 'oil') found.add('MDO_MGO');
    else if (word === 'lng') found.add('LNG');
    else if (word === 'methanol' || word === 'meoh') found.add('METHANOL');
  });
  return found.size === 1 ? [...found][0]! : null;
}

const sameWord = (a: string, b: string) =>
  a === b || (Math.min(a.length, b.length) >= 3 && (a.startsWith(b) || b.startsWith(a)));

/** How well a column's words match an alias's words (0 to 0.9) and how. */
function nameMatch(column: string[], alias: string[]): { score: number; exact: boolean } {
  if (column.length === 0 || alias.length === 0) return { score: 0, exact: false };
  const found = alias.filter((a) => column.some((c) => sameWord(a, c))).length;
  const used = column.filter((c) => alias.some((a) => sameWord(a, c))).length;
  if (found === alias.length && used === column.length) return { score: 0.9, exact: true };
  if (found === alias.length) {
    const extra = column.length - used;
    return { score: Math.max(0.55, 0.85 - 0.07 * extra), exact: false };
  }
  // The column says less than the alias (pH for "washwater inlet ph"): a guess, never enough alone.
  if (used === column.length) return { score: 0.2 + (0.4 * used) / alias.length, exact: false };
  const union = alias.length + column.length - found;
  return { score: (0.6 * found) / union, exact: false };
}

// ---- proposals

export interface SuggestionField {
  /** The portal channel name the calculations read (FUEL_FLOW). */
  name: string;
  /** Its unit as configured, when it is not a known field (or to override the known one). */
  unit?: string | null;
}

export interface SuggestionColumn {
  channel: string;
  unit: string | null;
  dataType: ChannelDataType;
  minSampleValue: number | null;
  maxSampleValue: number | null;
}

export interface OrganizationAlias {
  field: string;
  alias: string;
}

export interface ColumnProposal {
  field: string;
  column: string;
  /** The column's unit (from the unit row, or from its name). */
  unit: string | null;
  /** 0 to 1; from ACCEPT_CONFIDENCE on, "Accept all" takes it. */
  confidence: number;
  reasons: string[];
  /** A fuel flow (a field of a consumer, or a column in kg/h): the consumer its name says, else the field's. */
  consumer: ChannelConsumer | null;
  /** A fuel flow whose name says its fuel: that fuel. */
  fuelType: ChannelFuelType | null;
}

export interface MappingSuggestions {
  proposals: ColumnProposal[];
  /** Fields no column was proposed for. */
  unmatchedFields: string[];
  /** Columns proposed for no field, in the file's order. */
  unmappedColumns: string[];
}

const round2 = (x: number) => Math.round(x * 100) / 100;
const show = (x: number) => String(round2(x));

/** The unit of a field: configured (when we know it), else the known field's, else none to compare. */
function fieldUnit(field: SuggestionField, known: KnownField | undefined): UnitKind | null {
  const configured = unitKind(field.unit);
  if (configured && configured !== 'none') return configured;
  return known?.unit ?? configured;
}

/** The score of one column for one field, with the reasons; null when nothing in the name matches. */
export function scoreColumn(
  field: SuggestionField,
  column: SuggestionColumn,
  organizationAliases: readonly string[] = [],
): { confidence: number; reasons: string[] } | null {
  const known = KNOWN_FIELDS[field.name.toUpperCase()];
  const name = normaliseName(column.channel);
  const reasons: string[] = [];

  // Name: the best of the organization's aliases, the known aliases and the field's own name.
  let best = { score: 0, text: '' };
  for (const alias of organizationAliases) {
    if (alias.trim().toLowerCase() === column.channel.trim().toLowerCase())
      best = { score: 0.95, text: `Your organization's alias "${alias}"` };
  }
  const candidates = [...(known?.aliases ?? []), field.name, ...organizationAliases];
  for (const alias of candidates) {
    const m = nameMatch(name.words, normaliseName(alias).words);
    if (m.score > best.score)
      best = {
        score: m.score,
        text: m.exact ? `Known name "${alias}"` : `Name like "${alias}" (${Math.round(m.score * 100)} %)`,
      };
  }
  if (best.score === 0) return null;
  reasons.push(best.text);
  let confidence = best.score;

  // A fuel flow of one consumer is not another consumer's (AE1_FUEL_CONS is not the main engine's FUEL_FLOW).
  const consumer = known?.consumer ? consumerInName(column.channel) : null;
  if (known?.consumer && consumer && consumer !== known.consumer) {
    confidence -= 0.4;
    reasons.push(`Names the ${CONSUMER_WORDS[consumer]}, not the ${CONSUMER_WORDS[known.consumer]}`);
  }

  // Unit: from the unit row, else from the name.
  const columnUnitText = column.unit?.trim() ? column.unit : name.unit;
  const columnUnit = unitKind(columnUnitText);
  const expected = fieldUnit(field, known);
  if (columnUnit && columnUnit !== 'none' && expected) {
    if (columnUnit === expected) {
      confidence += 0.1;
      reasons.push(`Unit ${columnUnitText} agrees`);
    } else {
      confidence -= 0.4;
      reasons.push(`Unit ${columnUnitText} is not ${expected === 'none' ? 'on/off' : expected}`);
    }
  }

  // Values seen in the sample.
  const { minSampleValue: min, maxSampleValue: max } = column;
  if (min !== null && max !== null && column.dataType !== 'String' && column.dataType !== 'UTCDateTime') {
    if (known?.boolean) {
      const onOff = min >= 0 && max <= 1 && (column.dataType === 'Boolean' || column.dataType === 'Integer');
      if (onOff) {
        confidence += 0.1;
        reasons.push('Values are on/off (0 or 1)');
      } else {
        confidence -= 0.4;
        reasons.push(`Values ${show(min)} to ${show(max)} are not on/off`);
      }
    } else if (known?.range) {
      const [low, high] = known.range;
      if (min >= low && max <= high) {
        confidence += 0.05;
        reasons.push(`Values ${show(min)} to ${show(max)} within ${low} to ${high}`);
      } else {
        confidence -= 0.4;
        reasons.push(`Values ${show(min)} to ${show(max)} outside ${low} to ${high}`);
      }
      if (column.dataType === 'Boolean' && high > 1) {
        confidence -= 0.3;
        reasons.push('An on/off column');
      }
    }
  }
  return { confidence: Math.max(0, Math.min(1, round2(confidence))), reasons };
}

/**
 * What a proposal says for the carbon ledger: for a fuel flow (a field of a consumer, or a column in kg/h) the
 * consumer the column's name says, else the field's, and the fuel its name says; nothing for other fields.
 */
function fuelAttributes(
  field: SuggestionField,
  column: string,
  unit: string | null,
): { consumer: ChannelConsumer | null; fuelType: ChannelFuelType | null } {
  const known = KNOWN_FIELDS[field.name.toUpperCase()];
  const flow =
    known?.consumer !== undefined || (known === undefined && unitKind(field.unit ?? unit) === 'kg/h');
  if (!flow) return { consumer: null, fuelType: null };
  return { consumer: consumerInName(column) ?? known?.consumer ?? null, fuelType: fuelTypeInName(column) };
}

/**
 * Proposes a column for every field: all pairs are scored, then taken from the most confident down, each field and
 * each column at most once. Pairs under PROPOSE_CONFIDENCE are no proposal.
 */
export function suggestMappings(input: {
  fields: readonly SuggestionField[];
  columns: readonly SuggestionColumn[];
  aliases?: readonly OrganizationAlias[];
}): MappingSuggestions {
  const aliasesOf = new Map<string, string[]>();
  for (const a of input.aliases ?? []) {
    const key = a.field.toUpperCase();
    aliasesOf.set(key, [...(aliasesOf.get(key) ?? []), a.alias]);
  }
  const pairs: (ColumnProposal & { fieldIndex: number; columnIndex: number })[] = [];
  input.fields.forEach((field, fieldIndex) => {
    input.columns.forEach((column, columnIndex) => {
      const score = scoreColumn(field, column, aliasesOf.get(field.name.toUpperCase()) ?? []);
      if (!score || score.confidence < PROPOSE_CONFIDENCE) return;
      const unit = column.unit?.trim() ? column.unit : normaliseName(column.channel).unit;
      pairs.push({
        field: field.name,
        column: column.channel,
        unit,
        ...score,
        ...fuelAttributes(field, column.channel, unit),
        fieldIndex,
        columnIndex,
      });
    });
  });
  // Most confident first; on a tie, the file's and the fields' order.
  pairs.sort(
    (a, b) => b.confidence - a.confidence || a.fieldIndex - b.fieldIndex || a.columnIndex - b.columnIndex,
  );
  const byField = new Map<number, ColumnProposal>();
  const takenColumns = new Set<number>();
  for (const { fieldIndex, columnIndex, ...proposal } of pairs) {
    if (byField.has(fieldIndex) || takenColumns.has(columnIndex)) continue;
    byField.set(fieldIndex, proposal);
    takenColumns.add(columnIndex);
  }
  return {
    proposals: input.fields.flatMap((_, i) => byField.get(i) ?? []),
    unmatchedFields: input.fields.filter((_, i) => !byField.has(i)).map((f) => f.name),
    unmappedColumns: input.columns.filter((_, i) => !takenColumns.has(i)).map((c) => c.channel),
  };
}
