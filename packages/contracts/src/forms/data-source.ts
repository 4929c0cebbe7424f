import { z } from 'zod';
import { CHANNEL_DATA_TYPES } from '../rules/constants';
import { fieldErrors, numberFromInput, type FieldErrors } from './errors';
import { optionalText, qualityScoreSchema } from './fields';
import { userText } from './text';
import { localIdProblem, normalizeLocalId } from '../local-id';

export const DATA_SOURCE_MESSAGES = {
  nameRequired: 'Name is required',
  nameForbidden: 'Name has forbidden characters',
  frequencyMoreThanZero: 'Frequency must be more than 0',
  wholeNumber: 'Must be a whole number',
  offsetRequired: 'Timezone offset is required',
  configurationRequired: 'Provide a parser configuration',
  dataTypeRequired: 'You have to select a data type',
  sourceRequired: 'Source is required',
  // Ours: the spec requires these without giving texts.
  readerRequired: 'Reader is required',
  frequencyRequired: 'Frequency is required',
  number: 'Must be a number',
  offsetRange: 'Offset must be between -720 and 840 minutes',
  configurationJson: 'The parser configuration must be valid JSON',
} as const;
const M = DATA_SOURCE_MESSAGES;

/** Data source, channel and measurement field names: letters, digits and underscore (they are names in calculations). */
export const NAME_PATTERN = /^[A-Za-z0-9_]+$/;

export const nameSchema = z
  .string({ error: M.nameRequired })
  .trim()
  .min(1, M.nameRequired)
  .regex(NAME_PATTERN, M.nameForbidden);

const requiredNumber = (requiredMessage: string) =>
  z.preprocess(
    numberFromInput,
    z.number({ error: (iss) => (iss.input === null ? requiredMessage : M.number) }),
  );

export const measureFrequencySchema = requiredNumber(M.frequencyRequired).pipe(
  z.number().gt(0, M.frequencyMoreThanZero).int(M.wholeNumber),
);

/** Local clock = UTC + offset; real zones lie between UTC-12 and UTC+14. */
export const utcOffsetSchema = requiredNumber(M.offsetRequired).pipe(
  z.number().int(M.wholeNumber).min(-720, M.offsetRange).max(840, M.offsetRange),
);

export const parserConfigurationSchema = userText({ error: M.configurationRequired })
  .trim()
  .min(1, M.configurationRequired)
  .refine((text) => {
    try {
      JSON.parse(text);
      return true;
    } catch {
      return false;
    }
  }, M.configurationJson)
  .describe(
    "The reader's configuration as JSON text: #/components/schemas/DelimitedReaderConfiguration for delimited-text, #/components/schemas/XlsxReaderConfiguration for excel-workbook (docs/readers.md).",
  );

export const dataSourceSchema = z.object({
  name: nameSchema,
  dataSourceReaderId: userText({ error: M.readerRequired }).trim().min(1, M.readerRequired),
  dataSourceReaderConfiguration: parserConfigurationSchema,
  measureFrequencyInSeconds: measureFrequencySchema,
  utcTimezoneOffsetInMinutes: utcOffsetSchema,
  note: optionalText,
  isPrimary: z.boolean().default(false),
});
export type DataSourceValues = z.infer<typeof dataSourceSchema>;
export const validateDataSource = (values: unknown): FieldErrors<keyof DataSourceValues> =>
  fieldErrors(dataSourceSchema, values);

/**
 * A channel's ISO 19848-style local id (local-id.ts): trimmed, empty is none (null); left out (undefined) on a change
 * keeps the stored one. Refused with local-id.ts's reason.
 */
export const localIdSchema = z
  .string({ error: 'A local id is a text' })
  .nullish()
  .transform((text, ctx) => {
    if (text === undefined) return undefined;
    const localId = normalizeLocalId(text);
    const problem = localId === null ? null : localIdProblem(localId);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
    return localId;
  })
  .describe(
    "The channel's ISO 19848 local id, as its gateway announces it (e.g. /dnv-v2/vis-3-4a/411.1/C101.31/meta/qty-temperature); empty or null for none, left out to keep it.",
  );

const channelFields = {
  name: nameSchema,
  dataType: z.enum(CHANNEL_DATA_TYPES, { error: M.dataTypeRequired }),
  unit: optionalText,
  description: optionalText,
  qualityScore: qualityScoreSchema,
  localId: localIdSchema,
};

/** Mapping a raw channel of the sample: the source is the raw channel's name, given by the mapping panel. */
export const channelMappingSchema = z.object({ source: userText(), ...channelFields });
export type ChannelMappingValues = z.infer<typeof channelMappingSchema>;
export const validateChannelMapping = (values: unknown): FieldErrors<keyof ChannelMappingValues> =>
  fieldErrors(channelMappingSchema, values);

/** A custom channel names its source itself. */
export const customChannelSchema = z.object({
  source: userText({ error: M.sourceRequired }).trim().min(1, M.sourceRequired),
  ...channelFields,
});
export type CustomChannelValues = z.infer<typeof customChannelSchema>;
export const validateCustomChannel = (values: unknown): FieldErrors<keyof CustomChannelValues> =>
  fieldErrors(customChannelSchema, values);

export const CHANNEL_LIST_MESSAGES = {
  duplicateName: (name: string) => `Another mapping of this list is also named ${name}`,
  duplicateSource: (source: string, name: string) => `The channel ${source} is also mapped as ${name}`,
  duplicateId: 'The same mapping is in the list twice',
  notValid: (count: number) =>
    count === 1 ? 'A mapping of the list is not valid' : `${count} mappings of the list are not valid`,
} as const;

/** One thing wrong with a list of mappings: `path` is the item's index and its field ('3.name'). */
export interface ChannelListProblem {
  path: string;
  message: string;
}

/**
 * Everything wrong with a data source's list of mappings (PUT facilitydatasourcechannels), not only the first:
 * each mapping's own rules (name, data type, source, rating), names used twice (case does not count), a raw
 * channel mapped twice, an id twice.
 */
export function channelMappingListProblems(
  list: readonly {
    id?: string;
    source: string;
    name: string;
    dataType: string;
    unit?: string | null;
    description?: string | null;
    qualityScore?: number | null;
    isCustom?: boolean;
  }[],
): ChannelListProblem[] {
  const problems: ChannelListProblem[] = [];
  const names = new Map<string, number>();
  const sources = new Map<string, string>();
  const ids = new Set<string>();
  list.forEach((item, index) => {
    const parsed = customChannelSchema.safeParse(item);
    const seen = new Set<string>();
    if (!parsed.success)
      for (const issue of parsed.error.issues) {
        const key = String(issue.path[0] ?? '');
        if (seen.has(key)) continue;
        seen.add(key);
        problems.push({ path: `${index}.${key}`, message: issue.message });
      }
    if (item.id !== undefined) {
      if (ids.has(item.id))
        problems.push({ path: `${index}.id`, message: CHANNEL_LIST_MESSAGES.duplicateId });
      ids.add(item.id);
    }
    const name = item.name.trim().toLowerCase();
    if (name && !seen.has('name')) {
      if (names.has(name))
        problems.push({
          path: `${index}.name`,
          message: CHANNEL_LIST_MESSAGES.duplicateName(item.name.trim()),
        });
      else names.set(name, index);
    }
    const source = item.source.trim();
    if (!item.isCustom && source && !seen.has('source')) {
      const other = sources.get(source);
      if (other !== undefined)
        problems.push({
          path: `${index}.source`,
          message: CHANNEL_LIST_MESSAGES.duplicateSource(source, other),
        });
      else sources.set(source, item.name.trim());
    }
  });
  return problems;
}

/** An organization's alias of a logger column for a measurement field. */
export const channelAliasBodySchema = z.object({
  field: nameSchema,
  alias: userText({ error: 'Alias is required' })
    .trim()
    .min(1, 'Alias is required')
    .max(200, 'At most 200 characters'),
});
export type ChannelAliasValues = z.infer<typeof channelAliasBodySchema>;
