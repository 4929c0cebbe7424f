import { z } from 'zod';
import { CHANNEL_DATA_TYPES } from '../rules/constants';
import { fieldErrors, numberFromInput, type FieldErrors } from './errors';
import { optionalText, qualityScoreSchema } from './fields';
import { userText } from './text';

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

const channelFields = {
  name: nameSchema,
  dataType: z.enum(CHANNEL_DATA_TYPES, { error: M.dataTypeRequired }),
  unit: optionalText,
  description: optionalText,
  qualityScore: qualityScoreSchema,
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
