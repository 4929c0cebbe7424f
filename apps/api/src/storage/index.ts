/**
 * Storage: how samples, originals and computed series are kept (docs/decisions/0050-storage-performance.md), one
 * module per stored series, each the only code that writes, reads, deletes and rolls up its tables. The upload
 * (features/files), the engine (features/executions) and the features that read values use this module API, not
 * the tables behind it (ARCHITECTURE.md, "Storage"; no SQL on these tables outside storage/):
 * - the column format (packed.ts): Float64 columns packed where exact, plain doubles otherwise;
 * - raw samples (samples.ts): `raw_timestamps`, `raw_values`, per data file and channel, and `stream_samples`, per
 *   data source, channel and source time (the Sparkplug stream);
 * - measurement values (measurement-values.ts): day chunks of `measurement_values`;
 * - report values (report-values.ts): the hours of `report_values`, one series per value source
 *   (report-value-sources.ts: the fields that share a calculation share one stored series);
 * - their daily roll-up (report-values-daily.ts): `report_values_daily`, and the partial sums the reports read;
 * - compliance events (events.ts): `compliance_events` and their acknowledgements;
 * - the record book (record-book.ts): `record_book_entries`, a SHA-256 chain;
 * - the carbon ledger's pieces of time (ledger-segments.ts): `ledger_segments`, and the sums the CII reads;
 * - port calls (port-calls.ts): `port_calls` with `port_call_fuel`;
 * - voyages (voyages.ts): `voyages` with `voyage_fuel`;
 * - the originals store (originals.ts): uploads as received, in the database or beside PGlite;
 * - the series derived from the samples (derived-series.ts): deleted together when samples are;
 * - the ship's lock on its derived values (ship-lock.ts), and UTC days (days.ts);
 * - the month partitions of the series above that grow with time (partitions.ts: made ahead and on demand, a month
 *   archived and restored), and the archived months the writers refuse (archived-months.ts);
 * - the rate limits' counters every API process shares (rate-limits.ts): `rate_limit_counters`.
 */
export { isPacked, packCodes, packFloat64, plainFloat64, unpackFloat64 } from './packed';
export { DAY_MS, HOUR_MS, dayChunks, dayText, floorDay, floorHour } from './days';
export { lowerBound, upperBound } from './search';
export { lockShipValues } from './ship-lock';
export {
  deleteFileSamples,
  float64FromBytes,
  mergeChunks,
  readRawSamples,
  latestStreamSamples,
  readStreamSamples,
  storeSampleColumns,
  storeSampleTimestamps,
  storeStreamSamples,
  streamSampleRange,
  type RawSampleQuery,
  type LatestStreamSample,
  type StoredStreamSample,
  type StoredStreamSamples,
  type StreamSample,
  type RawSamples,
  type SampleColumn,
  type SampleFileKey,
  type SampleTimestamps,
} from './samples';
export {
  bytesOf,
  concatSeries,
  deleteMeasurementValues,
  float64Of,
  packColumn,
  readLastDayValues,
  readMeasurementValues,
  replaceMeasurementValues,
  type FieldSeries,
  type MeasurementReplacement,
} from './measurement-values';
export { reportFieldValueSources, seriesCarriedOver, type ValueSources } from './report-value-sources';
export {
  carryReportSeries,
  deleteReportValues,
  hasReportValues,
  readHourlyPartials,
  readHourlyPoints,
  readLastReportValues,
  replaceReportValues,
  type ReportReplacement,
  type SpanSeries,
} from './report-values';
export {
  DERIVED_SERIES,
  deleteDerivedSeries,
  type DerivedSeries,
  type DerivedSeriesName,
} from './derived-series';
export {
  partialKey,
  readDailyPartials,
  readDailyPoints,
  readReportPartials,
  readShipValuesVersions,
  refreshDailyRollup,
  type DailyPick,
  type ReportPartial,
  type ReportPoint,
  type TimedPartial,
} from './report-values-daily';
export {
  deleteEvents,
  insertEvents,
  lockEvent,
  readEventsCrossing,
  readStoredEvents,
  readTransientStarts,
  storeAcknowledgement,
  storeEventClosed,
  storeEventReport,
  updateDerivedEvent,
  type Acknowledgement,
  type DerivedEventColumns,
  type StoredEvent,
} from './events';
export {
  GENESIS_HASH,
  appendRecordBookEntries,
  canonicalJson,
  entryHash,
  chainHash,
  findRecordBookEntry,
  readRecordBook,
  readRecordBookKinds,
  verifyRecordBook,
  type RecordBookEntry,
  type RecordBookEntryInput,
  type VerifyResult,
} from './record-book';
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
export { s3OriginalStore } from './originals-s3';
export {
  canonicalFuel,
  canonicalHours,
  readCiiSums,
  readLedgerExtent,
  readLedgerSegments,
  readShipsCiiInputs,
  replaceLedgerSegments,
  sameSegment,
  type CiiParticulars,
  type CiiSums,
  type ShipCiiInputs,
  type StoredSegment,
} from './ledger-segments';
export {
  deletePortCalls,
  findPortCall,
  readCallCrossing,
  readCallDepartingAfter,
  readNeighbourCalls,
  readPortCalls,
  replacePortCalls,
  setPortCallsFuel,
  type PortCallFacts,
  type StoredPortCall,
} from './port-calls';
export { findVoyage, readVoyages, replaceVoyages, type StoredVoyage, type VoyageFacts } from './voyages';
export {
  MONTHS_AHEAD,
  PARTITIONED_SERIES,
  archiveMonth,
  deleteShipMonths,
  ensureMonthPartitions,
  placeWaitingRows,
  prepareMonthPartitions,
  readOnlineMonths,
  restoreMonth,
} from './partitions';
export { archivedMonthError, assertMonthsOnline, readArchivedMonths } from './archived-months';
export {
  rateLimitCounters,
  sharedRateLimitStore,
  sweepRateLimits,
  type RateLimitCount,
  type SharedRateLimitOptions,
} from './rate-limits';
