import { z } from 'zod';
import { CHANNEL_DATA_TYPES } from './rules/constants';
import { customChannelSchema, dataSourceSchema } from './forms/data-source';

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
});
export type DataSourceChannel = z.infer<typeof dataSourceChannelSchema>;

/**
 * Body of POST/PUT facilitydatasourcechannels: a mapping of a raw channel (source = the raw channel's name) or a
 * custom channel (`isCustom`); the source is required either way.
 */
export const dataSourceChannelBodySchema = customChannelSchema.extend({
  isCustom: z.boolean().optional().default(false),
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

/** Import configuration: copy the data sources, channels and calculations of another ship. */
export const importConfigurationBodySchema = z.object({
  sourceFacilityId: z.string().min(1, 'Choose a ship to copy from'),
});
export const importConfigurationResponseSchema = z.object({
  dataSources: z.number(),
  channels: z.number(),
  calculations: z.number(),
});
export type ImportConfigurationResult = z.infer<typeof importConfigurationResponseSchema>;
