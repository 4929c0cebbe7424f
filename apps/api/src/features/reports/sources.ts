/**
 * Which report field's stored hourly values a field reads: its value source, the key of the stored series
 * (storage/report-value-sources.ts; docs/decisions/0030-report-fields.md, 0132).
 */
export { reportFieldValueSources, type ValueSources } from '../../storage';
