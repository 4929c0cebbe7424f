import type { Migration } from 'kysely';
import * as platform from './0001_platform';
import * as ingestion from './0002_ingestion';
import * as calculations from './0003_calculations';
import * as values from './0004_values';
import * as administration from './0005_administration';
import * as dataFileRemoval from './0006_data_file_removal';
import * as rawStorageExternal from './0007_raw_storage_external';
import * as originalParts from './0008_original_parts';
import * as valuesStorage from './0009_values_storage';
import * as accessVersion from './0010_access_version';
import * as pendingOriginals from './0011_pending_originals';
import * as executionStatus from './0012_execution_status';
import * as channelAliases from './0014_channel_aliases';
import * as dataHealth from './0015_data_health';
import * as complianceEvents from './0016_compliance_events';
import * as apiKeys from './0017_api_keys';
import * as alerts from './0018_alerts';
import * as webhooks from './0019_webhooks';
import * as alertQuietHours from './0020_alert_quiet_hours';
import * as eventAnnotations from './0021_event_annotations';
import * as eventReportRevisions from './0022_event_report_revisions';
import * as inspectionPacks from './0023_inspection_packs';
import * as ports from './0024_ports';
import * as ledgerInputs from './0025_ledger_inputs';
import * as carbonLedger from './0026_carbon_ledger';
import * as euaPrices from './0027_eua_prices';
import * as fuelEu from './0028_fueleu';
import * as verification from './0030_verification';
import * as complianceCalendar from './0032_compliance_calendar';
import * as liveStream from './0033_live_stream';
import * as executionWindows from './0034_execution_windows';
import * as zoneWarnings from './0035_zone_warnings';
import * as reportRollups from './0036_report_rollups';
import * as monthPartitions from './0037_month_partitions';
import * as reportSeriesOnce from './0038_report_series_once';
import * as sharedRateLimits from './0039_shared_rate_limits';
import * as shipValuesVersions from './0041_ship_values_versions';
import * as eventOpenCountsIndex from './0042_event_open_counts_index';
import * as ciiReportsVersion from './0043_cii_reports_version';

/** Every migration, by name; applied in name order. Add a new one here. */
export const migrations: Record<string, Migration> = {
  '0001_platform': platform,
  '0002_ingestion': ingestion,
  '0003_calculations': calculations,
  '0004_values': values,
  '0005_administration': administration,
  '0006_data_file_removal': dataFileRemoval,
  '0007_raw_storage_external': rawStorageExternal,
  '0008_original_parts': originalParts,
  '0009_values_storage': valuesStorage,
  '0010_access_version': accessVersion,
  '0011_pending_originals': pendingOriginals,
  '0012_execution_status': executionStatus,
  '0014_channel_aliases': channelAliases,
  '0015_data_health': dataHealth,
  '0016_compliance_events': complianceEvents,
  '0017_api_keys': apiKeys,
  '0018_alerts': alerts,
  '0019_webhooks': webhooks,
  '0020_alert_quiet_hours': alertQuietHours,
  '0021_event_annotations': eventAnnotations,
  '0022_event_report_revisions': eventReportRevisions,
  '0023_inspection_packs': inspectionPacks,
  '0024_ports': ports,
  '0025_ledger_inputs': ledgerInputs,
  '0026_carbon_ledger': carbonLedger,
  '0027_eua_prices': euaPrices,
  '0028_fueleu': fuelEu,
  '0030_verification': verification,
  '0032_compliance_calendar': complianceCalendar,
  '0033_live_stream': liveStream,
  '0034_execution_windows': executionWindows,
  '0035_zone_warnings': zoneWarnings,
  '0036_report_rollups': reportRollups,
  '0037_month_partitions': monthPartitions,
  '0038_report_series_once': reportSeriesOnce,
  '0039_shared_rate_limits': sharedRateLimits,
  '0041_ship_values_versions': shipValuesVersions,
  '0042_event_open_counts_index': eventOpenCountsIndex,
  '0043_cii_reports_version': ciiReportsVersion,
};
