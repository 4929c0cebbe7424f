import { z } from 'zod';
import { CHANNEL_DATA_TYPES } from './rules/constants';
import { customChannelSchema, dataSourceSchema } from './forms/data-source';
import {
  channelConsumerSchema,
  channelFuelTypeSchema,
  fuelChannelAttributesSchema,
  fuelChannelBodySchema,
} from './fuel-channels';

/** Data sources, their readers, sample channels and channel mappings (spec part 2, sections 3 and 7). */

export const idParamSchema = z.object({ id: z.string() });
export const facilityDataSourceParamsSchema = z.object({ id: z.string(), dataSourceId: z.string() });
export const channelParamsSchema = z.object({ id: z.string(), channelId: z.string() });

/** A reader (parser provider); `defaultConfiguration` is JSON text, as the data source stores it. */
export const dataSourceReaderSchema = z.object({
  id: z.string(),
  name: z.string(),
  defaultConfiguration: z.string(),
  acceptedFileExtensions: z.array(z.string()),
  acceptedFileExtensionsByComma: z.string(),
});
export type DataSourceReader = z.infer<typeof dataSourceReaderSchema>;

const channelDataType = z.enum(CHANNEL_DATA_TYPES);

/** A channel mapping (a raw channel given a name the calculations use) or a custom channel. */
export const dataSourceChannelSchema = z.object({
  id: z.string(),
  dataSourceId: z.string(),
  source: z.string(),
  name: z.string(),
  /** Data source name + '.' + channel name. */
  fullName: z.string(),
  dataType: channelDataType,
  unit: z.string().nullable(),
  description: z.string().nullable(),
  qualityScore: z.number().nullable(),
  isCustom: z.boolean(),
  /** Its ISO 19848-style local id (local-id.ts), matched against a streamed channel's; null when none is set. */
  localId: z.string().nullable(),
  /** The carbon ledger's (ours, issue 31; fuel-channels.ts): a fuel flow channel's consumer and fuel type source. */
  ...fuelChannelAttributesSchema.shape,
});
export type DataSourceChannel = z.infer<typeof dataSourceChannelSchema>;

/**
 * Body of POST/PUT facilitydatasourcechannels: a mapping of a raw channel (source = the raw channel's name) or a
 * custom channel (`isCustom`); the source is required either way.
 */
export const dataSourceChannelBodySchema = customChannelSchema.extend({
  isCustom: z.boolean().optional().default(false),
  ...fuelChannelBodySchema.shape,
});
export type DataSourceChannelBody = z.input<typeof dataSourceChannelBodySchema>;
export type DataSourceChannelValues = z.infer<typeof dataSourceChannelBodySchema>;

/** A raw channel of the sample file (spec part 2, section 3). */
export const rawChannelSchema = z.object({
  channel: z.string(),
  description: z.string().nullable(),
  dataType: channelDataType,
  unit: z.string().nullable(),
  decimals: z.number(),
  minSampleValue: z.number().nullable(),
  maxSampleValue: z.number().nullable(),
  minscale: z.number().nullable(),
  maxscale: z.number().nullable(),
});
export type RawChannel = z.infer<typeof rawChannelSchema>;

export const dataSourceSchemaResponse = z.object({
  id: z.string(),
  facilityId: z.string(),
  name: z.string(),
  note: z.string().nullable(),
  isPrimary: z.boolean(),
  dataSourceReaderId: z.string(),
  dataSourceReaderName: z.string(),
  dataSourceReaderConfiguration: z.string(),
  dataSourceReaderAcceptedFileExtensionsByComma: z.string(),
  measureFrequencyInSeconds: z.number(),
  utcTimezoneOffsetInMinutes: z.number(),
  sampleFileName: z.string().nullable(),
  channels: z.array(dataSourceChannelSchema),
  filesCount: z.number(),
});
export type DataSource = z.infer<typeof dataSourceSchemaResponse>;

/** Body of POST/PUT datasource: the form's rules, server side too. */
export const dataSourceBodySchema = dataSourceSchema;
export type DataSourceBody = z.input<typeof dataSourceBodySchema>;

export const createdSchema = z.object({ id: z.string() });

/** The start of imported calculations on a ship without data yet: an open start in practice, older than any logger's data. */
export const IMPORT_VALID_FROM_WITHOUT_DATA = '2000-01-01T00:00:00.000Z';

/** The start the import dialog offers and the API takes when none is picked: the ship's earliest data, else the open start. */
export const defaultImportValidFrom = (dataTimeStampMin: string | Date | null | undefined): string =>
  dataTimeStampMin ? new Date(dataTimeStampMin).toISOString() : IMPORT_VALID_FROM_WITHOUT_DATA;

/** Import configuration: copy the data sources, channels and calculations of another ship. */
export const importConfigurationBodySchema = z.object({
  sourceFacilityId: z.string().min(1, 'Choose a ship to copy from').describe('The ship to copy from.'),
  validFrom: z.iso
    .datetime({ offset: true, message: 'Valid from must be a date and time' })
    .nullish()
    .describe(
      "When the copied calculations start to apply on this ship (ISO 8601). Left out: this ship's earliest data, or 2000-01-01T00:00:00Z when it has none yet, so that any older data uploaded later is covered.",
    ),
});
export type ImportConfigurationBody = z.input<typeof importConfigurationBodySchema>;
export const importConfigurationResponseSchema = z.object({
  dataSources: z.number(),
  channels: z.number(),
  calculations: z.number(),
  validFrom: z.string().describe('The start of the copied calculations, UTC ISO 8601.'),
});
export type ImportConfigurationResult = z.infer<typeof importConfigurationResponseSchema>;

/** GET facilitydatasource/{id}/suggested-mappings: from the sample file, or from an uploaded file of the data source. */
export const suggestedMappingsQuerySchema = z.object({ fileId: z.string().optional() });

/** A column proposed for a measurement field (the name of a mapping its calculations read). */
export const channelProposalSchema = z.object({
  field: z.string(),
  column: z.string(),
  /** The column's unit, from the unit row or from its name. */
  unit: z.string().nullable(),
  /** 0 to 1; from `acceptConfidence` on, Accept all takes it. */
  confidence: z.number(),
  reasons: z.array(z.string()),
  /** The data source's mapping of this field, if it has one. */
  mappingId: z.string().nullable(),
  /** That mapping already reads this column. */
  matchesExisting: z.boolean(),
  /** A fuel flow column: the consumer its name says (ME, AE, DG, boiler ...), else the field's; null for others. */
  consumer: channelConsumerSchema.nullable(),
  /** A fuel flow column whose name says its fuel (HFO, MGO, LNG ...): that fuel as a fixed fuel type; else null. */
  fuelType: channelFuelTypeSchema.nullable(),
});
export type ChannelProposal = z.infer<typeof channelProposalSchema>;

export const suggestedMappingsSchema = z.object({
  /** The file the columns were read from. */
  fileName: z.string(),
  /** The organization whose aliases were used (the ship's owner): where a new alias goes. */
  organizationId: z.string(),
  acceptConfidence: z.number(),
  proposals: z.array(channelProposalSchema),
  /** Fields no column was proposed for, with their current mapping if any. */
  unmatchedFields: z.array(
    z.object({ field: z.string(), mappingId: z.string().nullable(), source: z.string().nullable() }),
  ),
  /** Columns of the file proposed for no field and read by no other mapping. */
  unmappedColumns: z.array(rawChannelSchema),
  /** Every column of the file, for choosing another than the proposed one. */
  columns: z.array(rawChannelSchema),
  /** Mappings (not custom) whose source is not a column of the file and that no proposal changes. */
  mappingsWithoutColumn: z.array(
    z.object({ id: z.string(), name: z.string(), source: z.string(), readByCalculation: z.boolean() }),
  ),
});
export type SuggestedMappings = z.infer<typeof suggestedMappingsSchema>;

/**
 * One mapping of PUT facilitydatasourcechannels (a list: the data source's mappings after the call). With `id` an
 * existing mapping is kept (its id, which calculations read) and changed; without, a mapping is added; the data
 * source's mappings that the list leaves out are removed. Checked as a whole by `channelMappingListProblems`.
 */
export const channelMappingListItemSchema = z.object({
  id: z.string().optional(),
  source: z.string(),
  name: z.string(),
  dataType: z.string(),
  unit: z.string().nullish(),
  description: z.string().nullish(),
  qualityScore: z.number().nullish(),
  isCustom: z.boolean().optional(),
  /** Its ISO 19848-style local id; left out on an item with an id, the mapping keeps its own. */
  localId: z.string().nullish(),
  /** Left out on an item with an id: the mapping keeps its consumer and fuel type (fuel-channels.ts). */
  ...fuelChannelBodySchema.shape,
});
export type ChannelMappingListItem = z.infer<typeof channelMappingListItemSchema>;
export const channelMappingListSchema = z.array(channelMappingListItemSchema).max(5_000);

/** An organization's own name of a logger column for a measurement field, used by the suggested mappings. */
export const channelAliasSchema = z.object({
  id: z.string(),
  field: z.string(),
  alias: z.string(),
  createdOn: z.string(),
});
export type ChannelAlias = z.infer<typeof channelAliasSchema>;
export const channelAliasParamsSchema = z.object({ id: z.string(), aliasId: z.string() });
/**
 * Body of POST algorithm/facility/{id}/datasource/preview: a reader configuration (possibly not saved) tried on a
 * file: the data source's sample file, a file uploaded to the ship, or (with .../preview/file) a file sent along.
 */
export const readerPreviewBodySchema = z.object({
  dataSourceReaderId: z.string().describe('The reader: delimited-text or excel-workbook.'),
  dataSourceReaderConfiguration: z
    .string()
    .describe(
      'The reader configuration as JSON text, as a data source stores it: #/components/schemas/DelimitedReaderConfiguration or #/components/schemas/XlsxReaderConfiguration.',
    ),
  utcTimezoneOffsetInMinutes: z
    .number()
    .int()
    .min(-720)
    .max(840)
    .default(0)
    .describe("The data source's offset of the logger clock: local = UTC + offset."),
  dataSourceId: z
    .string()
    .optional()
    .describe('Preview the sample file of this data source of the ship (ignored when fileId is given).'),
  fileId: z.string().optional().describe('Preview this data file uploaded to the ship.'),
});
export type ReaderPreviewBody = z.input<typeof readerPreviewBodySchema>;

export const readerPreviewSchema = z.object({
  fileName: z.string(),
  header: z.array(z.string()).describe('Every name of the header row, timestamp columns included.'),
  channels: z
    .array(z.object({ name: z.string(), unit: z.string().nullable(), description: z.string().nullable() }))
    .describe('The columns read as raw channels, with their unit and description rows when those are set.'),
  rows: z
    .array(
      z.object({
        row: z.number().describe('Row number in the file (1-based).'),
        timestampText: z.string().describe('The timestamp cells as written.'),
        timestamp: z
          .string()
          .nullable()
          .describe('The time read, UTC ISO 8601; null when it does not match.'),
        values: z
          .array(z.union([z.number(), z.string(), z.null()]))
          .describe('One per channel: a number, a text, or null for a missing value.'),
      }),
    )
    .describe('The first 20 data rows.'),
  errors: z
    .array(z.string())
    .describe('Readable mistakes, e.g. "Row 3: the timestamp \'2026-13-01\' does not match DD.MM.YYYY."'),
  file: z
    .object({ rowCount: z.number(), timeStampMin: z.string(), timeStampMax: z.string() })
    .nullable()
    .describe(
      'The whole file as an upload reads it (files up to 5 MB); null when it does not read or is larger.',
    ),
});
export type ReaderPreview = z.infer<typeof readerPreviewSchema>;
