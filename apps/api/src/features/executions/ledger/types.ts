import type { Kysely } from 'kysely';
import type { Consumer, FuelType, PortCall, PortLookup } from '@portal/contracts/rules/carbon';
import type { Database } from '../../../db/schema';
import type { PortCallFacts } from '../../../storage';
import type { LedgerSegment } from '../ledger-segments';
import type { FieldSeriesOf } from '../measurement-fields';

/** The ledger step's port, request and result, its configuration and what that is made of (config.ts builds it,
 * load-config.ts reads it). */

export interface ChannelRef {
  id: string;
  dataSourceId: string;
  source: string;
  name: string;
}

/** Where a flow's fuel type comes from (its channel mapping), before it is read. */
export type FlowFuelSource =
  | { kind: 'fixed'; fuelType: FuelType }
  | { kind: 'channel'; channel: ChannelRef }
  | { kind: 'change-overs' }
  /** Not known (no mapping says): every sample's fuel is UNKNOWN, as the rules keep it. */
  | { kind: 'unknown' };

/** A fuel flow the ledger integrates: a measurement field or a raw channel (kg/h), its consumer and fuel type. */
export interface LedgerFlow {
  /** The key of its hours without fuel data: the channel's id, or the field's. */
  id: string;
  name: string;
  consumer: Consumer;
  read: { kind: 'field'; fieldId: string } | { kind: 'channel'; channel: ChannelRef };
  fuel: FlowFuelSource;
}

/** A ship's configuration for the ledger (loadLedgerConfig). */
export interface LedgerConfig {
  facilityId: string;
  organizationId: string;
  /** The ship's data (ms), null without any. */
  dataFrom: number | null;
  dataTo: number | null;
  latitudeFieldId: string | undefined;
  longitudeFieldId: string | undefined;
  speed: { kind: 'field'; fieldId: string } | { kind: 'channel'; channel: ChannelRef } | null;
  flows: LedgerFlow[];
  scrubberFuelFieldId: string | undefined;
  /** Every field the ledger reads (a recomputation of none of them leaves the ledger as it is). */
  inputFieldIds: Set<string>;
}

/** A channel of the ship as the ledger reads its mapping. */
export interface LedgerChannelRow {
  id: string;
  data_source_id: string;
  source: string;
  name: string;
  consumer: Consumer | null;
  fuel_type_source: string | null;
  fuel_type: FuelType | null;
  fuel_type_channel_id: string | null;
}

/** What the configuration is made of, as read from storage (load-config.ts). */
export interface LedgerConfigRows {
  facilityId: string;
  organizationId: string;
  dataFrom: number | null;
  dataTo: number | null;
  /** Every measurement field of the catalogue. */
  fields: readonly { id: string; name: string }[];
  /** The ship's approved measurement calculations, the latest valid first. */
  calculations: readonly { measurement_field_id: string; input_ids: string[] | null }[];
  channels: readonly LedgerChannelRow[];
  primaryDataSourceId: string | undefined;
}

/** A derived call is a stored one when it is at the same port and arrives within this of it. */
export const CALL_IDENTITY_TOLERANCE_MS = 12 * 3_600_000;

/**
 * What the engine needs from the ports feature (wired by whoever runs the engine): the ports an organization's ships
 * call at, as a lookup asked at each fix's time (the reference with the organization's additions and corrections).
 * Each port's `id` is its key in the ledger: the UN/LOCODE of a reference port, `org:<id>` of an organization's own.
 */
export interface LedgerPortsPort {
  portsFor(db: Kysely<Database>, organizationId: string): Promise<PortLookup>;
}

/** No ports: every stay is at sea (no call), every piece a voyage. */
export const NO_LEDGER_PORTS: LedgerPortsPort = {
  portsFor: () => Promise.resolve({ ports: [], portAt: () => -1 }),
};

/** What the step derived: the window it replaces, the calls arriving inside it, and its pieces. */
export interface LedgerDerivation {
  facilityId: string;
  /** Whole UTC days [from, to). */
  from: number;
  to: number;
  calls: (PortCallFacts & { call: PortCall })[];
  segments: LedgerSegment[];
}

export interface LedgerRequest {
  /** The executed period (whole UTC days). */
  from: number;
  to: number;
  /** The fields recomputed by the execution ('all' for a run of the ledger alone). */
  recomputed: 'all' | ReadonlySet<string>;
  /** The recomputed series of the period; without it, the stored ones are read. */
  seriesOf?: FieldSeriesOf;
}
