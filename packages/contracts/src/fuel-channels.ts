import { z } from 'zod';
import { unitKind } from './channel-units';
import { CONSUMERS, FUEL_TYPES, LNG_ENGINES } from './rules/carbon/fuels';

/**
 * What a fuel flow channel's mapping says for the carbon ledger (issue 31; ../shared/DOMAIN.md "Voyages, fuel and
 * greenhouse gases"): the consumer the fuel feeds and where its fuel type comes from. Only a flow channel in kg/h
 * has them (the ledger integrates kg/h over time); every other mapping has none.
 *
 * The codes are the ledger's (rules/carbon/fuels.ts: CONSUMERS, FUEL_TYPES, LNG_ENGINES, one list each): the consumer types of MARPOL Annex VI Appendix IX as amended by MEPC.385(81) (main engines, auxiliary
 * engines, boilers, others; from 2026-01-01) and the fuel types of DOMAIN.md's fuel table.
 */

export const CHANNEL_CONSUMERS = CONSUMERS;
export type ChannelConsumer = (typeof CHANNEL_CONSUMERS)[number];
export const CHANNEL_CONSUMER_NAMES: Record<ChannelConsumer, string> = {
  MAIN_ENGINE: 'Main engine',
  AUX_ENGINE: 'Auxiliary engine',
  BOILER: 'Boiler',
  OTHER: 'Other',
};

/** In this order: a fuel type channel's value is the index of its fuel here (0 HFO, 1 LFO, 2 MDO/MGO ...). */
export const CHANNEL_FUEL_TYPES = FUEL_TYPES;
export type ChannelFuelType = (typeof CHANNEL_FUEL_TYPES)[number];
export const CHANNEL_FUEL_TYPE_NAMES: Record<ChannelFuelType, string> = {
  HFO: 'HFO',
  LFO: 'LFO',
  MDO_MGO: 'MDO/MGO',
  LNG: 'LNG',
  METHANOL: 'Methanol',
};

/** The engine kind of an LNG consumer, for its methane slip (FuelEU Maritime Annex II; rules/carbon/fuels.ts). */
export const CHANNEL_LNG_ENGINES = LNG_ENGINES;
export type ChannelLngEngine = (typeof CHANNEL_LNG_ENGINES)[number];

/**
 * Where a flow channel's fuel type comes from: one fuel all the time (`fixed`), a channel that logs the fuel in use
 * (`channel`: its value is the fuel's index in CHANNEL_FUEL_TYPES), or the fuel change-overs of the ship's record
 * book (`change-overs`: the fuel in use from each change-over on).
 */
export const FUEL_TYPE_SOURCES = ['fixed', 'channel', 'change-overs'] as const;
export type FuelTypeSource = (typeof FUEL_TYPE_SOURCES)[number];

/** The value a fuel type channel logs for a fuel. */
export const fuelTypeCode = (fuelType: ChannelFuelType): number => CHANNEL_FUEL_TYPES.indexOf(fuelType);
const CODES_TEXT = CHANNEL_FUEL_TYPES.map((f, i) => `${i} ${CHANNEL_FUEL_TYPE_NAMES[f]}`).join(', ');

export const FUEL_CHANNEL_MESSAGES = {
  consumer: 'Choose main engine, auxiliary engine, boiler or other',
  fuelType: `Choose the fuel: ${CHANNEL_FUEL_TYPES.map((f) => CHANNEL_FUEL_TYPE_NAMES[f]).join(', ')}`,
  fuelTypeSource: "Choose a fixed fuel, a fuel type channel or the record book's change-overs",
  lngEngine: 'Choose the LNG engine kind from the list',
  consumerFirst: 'Only a fuel flow channel has a fuel type: choose the consumer it feeds first',
  notFlow: (unit: string | null, dataType: string) =>
    dataType !== 'Double' && dataType !== 'Integer'
      ? `Only a fuel flow channel (a number in kg/h) has a consumer; this channel is ${dataType}`
      : `Only a fuel flow channel in kg/h has a consumer; this channel's unit is ${unit?.trim() ? unit.trim() : 'not set'}`,
  sourceRequired:
    "Say where the fuel type comes from: a fixed fuel, a fuel type channel or the record book's change-overs",
  fuelRequired: 'Choose the fuel this consumer burns',
  fuelOnlyWhenFixed:
    'A fuel is chosen only with a fixed fuel type; otherwise it comes from the channel or the change-overs',
  channelRequired: 'Choose the channel that logs the fuel in use',
  channelOnlyWhenChannel: 'A fuel type channel is chosen only when the fuel type comes from a channel',
  channelNotOfShip: 'The fuel type channel is not a channel of this ship',
  channelItself: 'A channel cannot log its own fuel type',
  channelIsFlow:
    'The fuel type channel is a fuel flow channel itself; choose the channel that logs the fuel in use',
  channelNotNumbers: `The fuel type channel must log numbers, the fuel codes ${CODES_TEXT}`,
  lngEngineNotLng: 'An LNG engine kind is only for a consumer that can burn LNG',
  readBy: (names: string[]) =>
    `${names.join(', ')} ${names.length === 1 ? 'reads its' : 'read their'} fuel type from this channel`,
  removedButRead: (name: string, readers: string[]) =>
    `${name} logs the fuel type of ${readers.join(', ')}: give ${readers.length === 1 ? 'it' : 'them'} another fuel type source first`,
  codes: CODES_TEXT,
} as const;
const M = FUEL_CHANNEL_MESSAGES;

export const channelConsumerSchema = z.enum(CHANNEL_CONSUMERS, { error: M.consumer });
export const channelFuelTypeSchema = z.enum(CHANNEL_FUEL_TYPES, { error: M.fuelType });
export const fuelTypeSourceSchema = z.enum(FUEL_TYPE_SOURCES, { error: M.fuelTypeSource });
export const channelLngEngineSchema = z.enum(CHANNEL_LNG_ENGINES, { error: M.lngEngine });

const emptyAsNull = (v: unknown) => (v === '' ? null : v);

/**
 * The ledger's attributes in a mapping's body. Each may be left out: an existing mapping keeps what it has, a new one
 * has none; null clears. Checked together by `fuelChannelProblems`.
 */
export const fuelChannelBodySchema = z.object({
  consumer: z
    .preprocess(emptyAsNull, channelConsumerSchema.nullable())
    .optional()
    .describe('A fuel flow channel (kg/h): the consumer it feeds.'),
  fuelTypeSource: z
    .preprocess(emptyAsNull, fuelTypeSourceSchema.nullable())
    .optional()
    .describe(
      "Where the fuel type comes from: 'fixed' (fuelType), 'channel' (fuelTypeChannelId) or 'change-overs' (the record book's fuel change-overs).",
    ),
  fuelType: z
    .preprocess(emptyAsNull, channelFuelTypeSchema.nullable())
    .optional()
    .describe("With fuelTypeSource 'fixed': the fuel."),
  fuelTypeChannelId: z
    .preprocess(emptyAsNull, z.string().nullable())
    .optional()
    .describe(
      `With fuelTypeSource 'channel': the id of a channel of the same ship that logs the fuel in use as a code (${CODES_TEXT}).`,
    ),
  lngEngine: z
    .preprocess(emptyAsNull, channelLngEngineSchema.nullable())
    .optional()
    .describe('An LNG consumer: its engine kind (the methane slip).'),
});
export type FuelChannelBody = z.input<typeof fuelChannelBodySchema>;

/** The ledger's attributes of a mapping as the API answers them; all null on a channel that is no fuel flow. */
export const fuelChannelAttributesSchema = z.object({
  consumer: channelConsumerSchema.nullable(),
  fuelTypeSource: fuelTypeSourceSchema.nullable(),
  fuelType: channelFuelTypeSchema.nullable(),
  fuelTypeChannelId: z.string().nullable(),
  lngEngine: channelLngEngineSchema.nullable(),
});
export type FuelChannelAttributes = z.infer<typeof fuelChannelAttributesSchema>;

export const NO_FUEL_ATTRIBUTES: FuelChannelAttributes = {
  consumer: null,
  fuelTypeSource: null,
  fuelType: null,
  fuelTypeChannelId: null,
  lngEngine: null,
};

/** Keeps what a body leaves out from `before` (an existing mapping) or from nothing (a new one). */
export function mergeFuelAttributes(
  body: Partial<Record<keyof FuelChannelAttributes, string | null | undefined>>,
  before: FuelChannelAttributes = NO_FUEL_ATTRIBUTES,
): FuelChannelAttributes {
  const pick = <K extends keyof FuelChannelAttributes>(key: K): FuelChannelAttributes[K] =>
    (body[key] === undefined ? before[key] : body[key]) as FuelChannelAttributes[K];
  return {
    consumer: pick('consumer'),
    fuelTypeSource: pick('fuelTypeSource'),
    fuelType: pick('fuelType'),
    fuelTypeChannelId: pick('fuelTypeChannelId'),
    lngEngine: pick('lngEngine'),
  };
}

/** A channel in kg/h that holds numbers: what may have a consumer. */
export const isFuelFlowChannel = (channel: { unit: string | null | undefined; dataType: string }) =>
  (channel.dataType === 'Double' || channel.dataType === 'Integer') && unitKind(channel.unit) === 'kg/h';

/** A channel of the ship as it would be after a change, for `fuelChannelProblems`. */
export interface FuelChannelState extends FuelChannelAttributes {
  /** The caller's key of the channel (the list index, or the id). */
  key: string;
  /** The stored id; absent for a mapping the change adds. */
  id?: string;
  name: string;
  unit: string | null;
  dataType: string;
  /** The change sets this channel (its problems are named on it); false for the ship's other channels. */
  editable: boolean;
}

export interface FuelChannelProblem {
  key: string;
  field: keyof FuelChannelAttributes | 'id' | 'unit' | 'dataType';
  message: string;
}

/**
 * Everything wrong with the ledger's attributes of a ship's channels after a change (each one's own rules, and the
 * fuel type channels they read: a channel of the same ship, not a flow channel, logging numbers), plus the channels
 * the change removes that another still reads its fuel type from. A problem is named on an editable channel: one of
 * a channel the change does not touch is named on the editable channel that causes it.
 */
export function fuelChannelProblems(
  channels: readonly FuelChannelState[],
  removed: readonly { key: string; id: string; name: string }[] = [],
): FuelChannelProblem[] {
  const problems: FuelChannelProblem[] = [];
  const byId = new Map(channels.flatMap((c) => (c.id === undefined ? [] : [[c.id, c] as const])));
  const removedIds = new Set(removed.map((r) => r.id));
  for (const c of channels) {
    const own = (field: FuelChannelProblem['field'], message: string) => {
      if (c.editable) problems.push({ key: c.key, field, message });
    };
    if (c.consumer === null) {
      if (c.fuelTypeSource || c.fuelType || c.fuelTypeChannelId || c.lngEngine)
        own('consumer', M.consumerFirst);
      continue;
    }
    if (!isFuelFlowChannel(c)) own('consumer', M.notFlow(c.unit, c.dataType));
    if (c.fuelTypeSource === null) own('fuelTypeSource', M.sourceRequired);
    if (c.fuelTypeSource === 'fixed' && c.fuelType === null) own('fuelType', M.fuelRequired);
    if (c.fuelTypeSource !== 'fixed' && c.fuelTypeSource !== null && c.fuelType !== null)
      own('fuelType', M.fuelOnlyWhenFixed);
    if (c.fuelTypeSource !== 'channel' && c.fuelTypeChannelId !== null)
      own('fuelTypeChannelId', M.channelOnlyWhenChannel);
    if (c.lngEngine !== null && c.fuelTypeSource === 'fixed' && c.fuelType !== null && c.fuelType !== 'LNG')
      own('lngEngine', M.lngEngineNotLng);
    if (c.fuelTypeSource !== 'channel') continue;
    if (c.fuelTypeChannelId === null) {
      own('fuelTypeChannelId', M.channelRequired);
      continue;
    }
    if (removedIds.has(c.fuelTypeChannelId)) continue; // named on the removal below
    const target = byId.get(c.fuelTypeChannelId);
    if (!target) {
      own('fuelTypeChannelId', M.channelNotOfShip);
      continue;
    }
    if (target === c) {
      own('fuelTypeChannelId', M.channelItself);
      continue;
    }
    const aboutTarget = (field: 'consumer' | 'dataType', ownMessage: string, targetMessage: string) => {
      if (c.editable) problems.push({ key: c.key, field: 'fuelTypeChannelId', message: ownMessage });
      else if (target.editable)
        problems.push({ key: target.key, field, message: `${M.readBy([c.name])}: ${targetMessage}` });
    };
    if (target.consumer !== null)
      aboutTarget('consumer', M.channelIsFlow, 'it cannot be a fuel flow channel itself');
    if (target.dataType !== 'Integer' && target.dataType !== 'Double')
      aboutTarget('dataType', M.channelNotNumbers, `it must log numbers, the fuel codes ${CODES_TEXT}`);
  }
  for (const r of removed) {
    const readers = channels.filter((c) => c.fuelTypeSource === 'channel' && c.fuelTypeChannelId === r.id);
    if (readers.length > 0)
      problems.push({
        key: r.key,
        field: 'id',
        message: M.removedButRead(
          r.name,
          readers.map((c) => c.name),
        ),
      });
  }
  return problems;
}
