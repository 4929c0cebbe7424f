/**
 * Storage: how samples, originals and computed series are kept (docs/decisions/0050-storage-performance.md). The
 * upload (features/files) and the execution engine (features/executions) use this module API, not the files behind
 * it:
 * - the column format (packed.ts): Float64 columns packed where exact, plain doubles otherwise;
 * - the sample reader (samples.ts): a ship's raw samples of a period, per data source, merged over files;
 * - the stored measurement series (measurement-values.ts): day chunks of `measurement_values`;
 * - the originals store (originals.ts): uploads as received, in the database or beside PGlite.
 */
export { isPacked, packCodes, packFloat64, plainFloat64, unpackFloat64 } from './packed';
export {
  float64FromBytes,
  mergeChunks,
  readRawSamples,
  type RawSampleQuery,
  type RawSamples,
} from './samples';
export {
  bytesOf,
  concatSeries,
  float64Of,
  packColumn,
  readLastDayValues,
  readMeasurementValues,
  type FieldSeries,
} from './measurement-values';
export {
  ORIGINAL_PART_BYTES,
  databaseOriginalStore,
  directoryOriginalStore,
  embeddedOriginalStore,
  originalsCompressed,
  type OriginalKey,
  type OriginalStore,
  type SweepResult,
} from './originals';
