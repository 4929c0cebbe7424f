import type { Kysely, Transaction } from 'kysely';
import type { AlertKind } from '@portal/contracts/alerts';
import type { DataHealthThreshold } from '@portal/contracts/data-health';
import type { EventClassification, EventType } from '@portal/contracts/events';
import type { Database } from '../../db/schema';
import type { FieldSeries } from '../../storage';
import type { ChannelFault } from './compliance-events';
import type { LedgerPortsPort } from './derive-ledger';

/**
 * What the engine needs from other features, declared here and handed in by whoever runs it
 * (features/engine-ports.ts wires the alerts', data health's and the ports' implementations; a test may wire its own).
 * The engine imports none of those features: they import these types and implement them.
 */
export interface EnginePorts {
  /** The alert outbox, written in the store step's transaction with the event changes (features/alerts/outbox.ts). */
  alerts: AlertOutboxPort;
  /** Data health's flags on the compliance channels, for the sensor-fault events (features/data-health). */
  dataHealth: DataHealthPort;
  /** The ports the carbon ledger derives port calls against (features/carbon/ledger-ports.ts, from features/ports). */
  ledgerPorts: LedgerPortsPort;
  /** The zone warnings, evaluated from the ship's latest stored values in the store step's transaction. */
  zoneWarnings: ZoneWarningsPort;
}

/**
 * Zone warnings before arrival (features/zone-warnings, docs/decisions/0123-zone-warnings.md): after a ship's values
 * are stored, its warnings are raised, updated or cleared from its latest positions and modes, in the same
 * transaction, with their alerts. Returns the warnings raised.
 */
export interface ZoneWarningsPort {
  evaluate(trx: Transaction<Database>, facilityId: string): Promise<number>;
}

/** For a caller that wants no zone warnings evaluated. */
export const NO_ZONE_WARNINGS: ZoneWarningsPort = { evaluate: async () => 0 };

/** What the engine knows of an event when it changes (compliance-events.ts DerivedEvent; times in ms). */
export interface EventChangeFacts {
  type: EventType;
  start: number;
  end: number;
  ongoing: boolean;
  classification: EventClassification | null;
  reportRequired: boolean;
  worstValue: number | null;
  limit: number | null;
  channel: string | null;
  fault: string | null;
}

/** An event's change that alerts: it opened, was classified up, or ended. */
export interface EventChange {
  kind: Exclude<AlertKind, 'reminder'>;
  eventId: string;
  event: EventChangeFacts;
}

export interface AlertOutboxPort {
  /**
   * Writes the alerts of a ship's event changes in the caller's transaction (the engine's replacing one), so an
   * event change never commits without its alert nor an alert without its change. Returns how many were written.
   */
  recordEventChanges(
    trx: Transaction<Database>,
    facilityId: string,
    changes: readonly EventChange[],
  ): Promise<number>;
}

/** For a store step that makes no change an alert is written for (withdrawing events): records nothing. */
export const NO_ALERTS: AlertOutboxPort = { recordEventChanges: async () => 0 };

/** A compliance channel of the ship, its series over the events' window and its threshold (from the plan). */
export interface FaultChannel {
  channel: string;
  series: FieldSeries;
  threshold: DataHealthThreshold;
}

export interface DataHealthPort {
  /**
   * The thresholds of an organization's channels, by measurement field name: its own, else the default. Read with
   * the plan (plan.ts), as every other piece of configuration.
   */
  thresholdsOf(
    db: Kysely<Database>,
    organizationId: string,
  ): Promise<(fieldName: string) => DataHealthThreshold>;
  /**
   * The sensor faults of a ship's compliance channels: the intervals data health flags on each (stale, flat-lined,
   * out of range), with the engine's running state (from ENGINE_LOAD, else FUEL_FLOW; running throughout when
   * neither has a value) as the health view reads them; stale up to `until`. Pure.
   */
  sensorFaults(input: {
    channels: readonly FaultChannel[];
    engineLoad: FieldSeries | null;
    fuelFlow: FieldSeries | null;
    from: number | undefined;
    until: number | undefined;
  }): ChannelFault[];
}
