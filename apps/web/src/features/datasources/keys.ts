/** Query keys of the data sources feature (keys other features use too are in lib/queries/keys.ts). */

export const dataSourceKeys = {
  all: ['datasources'] as const,
  facility: (facilityId: string) => [...dataSourceKeys.all, facilityId] as const,
};

/** The raw channels of data sources' sample files (a data source's channel mappings are in its data source). */
export const channelKeys = {
  all: ['samplechannels'] as const,
  sampleChannels: (dataSourceId: string) => [...channelKeys.all, dataSourceId] as const,
};

/** Suggested mappings of a data source (from its sample file, or an uploaded file). */
export const suggestionKeys = {
  all: ['suggestedmappings'] as const,
  dataSource: (dataSourceId: string, fileId?: string) =>
    [...suggestionKeys.all, dataSourceId, fileId ?? 'sample'] as const,
};

export const dataSourceFileKeys = {
  all: ['datasourcefiles'] as const,
  dataSource: (dataSourceId: string) => [...dataSourceFileKeys.all, dataSourceId] as const,
};

export const readerKeys = {
  all: ['datasourcereaders'] as const,
  /** A reader preview: the ship, the file read (a data source's sample, or a chosen file) and the settings sent. */
  preview: (facilityId: string, file: string, request: unknown) =>
    [...readerKeys.all, 'preview', facilityId, file, request] as const,
};
