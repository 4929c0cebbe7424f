import type { Kysely } from 'kysely';
import {
  CONSUMER_NAMES,
  FUEL_TYPE_NAMES,
  IMO_FUELS,
  type FuelType,
  type LegFuel,
} from '@portal/contracts/rules/carbon';
import type {
  FuelAmount,
  FuelByPeriod,
  PortCallRecord,
  Voyage,
  VoyageCargoRecord,
} from '@portal/contracts/carbon';
import type { Database } from '../../db/schema';
import type { StoredFuelLine } from '../../db/tables/carbon';
import { readLedgerSegments } from '../../storage';
import { findPortCall, readPortCalls, type StoredPortCall } from '../../storage';
import { findVoyage, readVoyages, type StoredVoyage } from '../../storage';
import { sumSegments } from '../executions/ledger-segments';
import { notFound } from '../../errors';

/**
 * The carbon ledger as the API answers it (issue 31): a ship's port calls and voyages as the engine stored them
 * (storage/port-calls.ts, voyages.ts), with their fuel per consumer and fuel type, and the fuel of any period of
 * whole days as the sum of the ledger's pieces (storage/ledger-segments.ts).
 */

export const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** [from 00:00, to + 1 day 00:00) of a period of days given as YYYY-MM-DD, both included. */
export function dayPeriod(query: { from: string; to: string }): { from: number; to: number } {
  return { from: Date.parse(`${query.from}T00:00:00Z`), to: Date.parse(`${query.to}T00:00:00Z`) + DAY_MS };
}

/** The optional period of a list's filter. */
export function optionalDayPeriod(query: { from?: string; to?: string }): { from?: number; to?: number } {
  return {
    from: query.from ? Date.parse(`${query.from}T00:00:00Z`) : undefined,
    to: query.to ? Date.parse(`${query.to}T00:00:00Z`) + DAY_MS : undefined,
  };
}

export const fuelAmounts = (fuel: readonly (StoredFuelLine | LegFuel)[]): FuelAmount[] =>
  fuel.map((f) => ({
    consumer: f.consumer,
    fuelType: f.fuelType,
    tonnes: f.kg / 1000,
    tonnesNotUnderWay: f.kgNotUnderWay / 1000,
  }));

/** A fuel line's name as shown (e.g. "Auxiliary engines, Diesel/gas oil (MDO/MGO)"). */
export const fuelLineName = (f: {
  consumer: StoredFuelLine['consumer'];
  fuelType: StoredFuelLine['fuelType'];
}) =>
  `${CONSUMER_NAMES[f.consumer]}, ${f.fuelType === 'UNKNOWN' ? 'fuel of unknown type' : FUEL_TYPE_NAMES[f.fuelType]}`;

export function presentPortCall(call: StoredPortCall): PortCallRecord {
  return {
    id: call.id,
    shipId: call.facilityId,
    portId: call.portKey,
    portName: call.portName,
    locode: call.locode,
    country: call.country,
    arrival: iso(call.arrival),
    departure: iso(call.departure),
    hours: (call.departure - call.arrival) / HOUR_MS,
    gapHours: call.gapMs / HOUR_MS,
    openStart: call.openStart,
    openEnd: call.openEnd,
    fuel: fuelAmounts(call.fuel),
    hoursWithoutFuelData: call.hoursWithoutFuelData,
  };
}

const callEnd = (call: StoredPortCall | undefined) =>
  call ? { portCallId: call.id, portId: call.portKey, portName: call.portName, country: call.country } : null;

export function presentVoyage(
  voyage: StoredVoyage,
  callsById: ReadonlyMap<string, StoredPortCall>,
  cargo: VoyageCargoRecord | null,
): Voyage {
  return {
    id: voyage.id,
    shipId: voyage.facilityId,
    from: callEnd(voyage.fromCallId ? callsById.get(voyage.fromCallId) : undefined),
    to: callEnd(voyage.toCallId ? callsById.get(voyage.toCallId) : undefined),
    departure: iso(voyage.departure),
    arrival: iso(voyage.arrival),
    durationHours: (voyage.arrival - voyage.departure) / HOUR_MS,
    distanceNm: voyage.distanceNm,
    hoursUnderWay: voyage.hoursUnderWay,
    hoursNotUnderWay: voyage.hoursNotUnderWay,
    hoursWithoutPosition: voyage.hoursWithoutPosition,
    fuel: fuelAmounts(voyage.fuel),
    hoursWithoutFuelData: voyage.hoursWithoutFuelData,
    co2Tonnes: voyage.co2g / 1e6,
    cargo,
  };
}

/** The cargo entered (or imported) for a ship's voyages, by departure (ms). */
export async function cargoByDeparture(
  db: Kysely<Database>,
  facilityId: string,
): Promise<Map<number, VoyageCargoRecord>> {
  const rows = await db
    .selectFrom('voyage_cargo')
    .select(['departure', 'laden', 'cargo_tonnes', 'teu', 'source'])
    .where('facility_id', '=', facilityId)
    .execute();
  return new Map(
    rows.map((r) => [
      new Date(r.departure).getTime(),
      { laden: r.laden, cargoTonnes: r.cargo_tonnes, teu: r.teu, source: r.source },
    ]),
  );
}

export async function listPortCalls(
  db: Kysely<Database>,
  facilityId: string,
  range: { from?: number; to?: number },
): Promise<PortCallRecord[]> {
  return (await readPortCalls(db, facilityId, range)).map(presentPortCall);
}

export async function listVoyages(
  db: Kysely<Database>,
  facilityId: string,
  range: { from?: number; to?: number },
): Promise<Voyage[]> {
  const voyages = await readVoyages(db, facilityId, range);
  if (voyages.length === 0) return [];
  const calls = await readPortCalls(db, facilityId, {
    from: voyages[0]!.departure - DAY_MS,
    to: voyages.at(-1)!.arrival + DAY_MS,
  });
  const byId = new Map(calls.map((c) => [c.id, c]));
  const cargo = await cargoByDeparture(db, facilityId);
  return voyages.map((v) => presentVoyage(v, byId, cargo.get(v.departure) ?? null));
}

/** One voyage (its ship is checked by the caller with the id answered). */
export async function voyageById(
  db: Kysely<Database>,
  id: string,
): Promise<{ voyage: StoredVoyage; present: () => Promise<Voyage> }> {
  const voyage = await findVoyage(db, id);
  if (!voyage) throw notFound('Voyage not found');
  return {
    voyage,
    present: async () => {
      const calls = await Promise.all(
        [voyage.fromCallId, voyage.toCallId].filter((c) => c !== null).map((c) => findPortCall(db, c)),
      );
      const byId = new Map(calls.filter((c) => c !== undefined).map((c) => [c.id, c]));
      const cargo = await cargoByDeparture(db, voyage.facilityId);
      return presentVoyage(voyage, byId, cargo.get(voyage.departure) ?? null);
    },
  };
}

/** The fuel of a ship over whole UTC days [from, to): the sum of the ledger's pieces. */
export async function fuelForPeriod(
  db: Kysely<Database>,
  facilityId: string,
  from: number,
  to: number,
): Promise<FuelByPeriod> {
  const segments = await readLedgerSegments(db, facilityId, from, to);
  const totals = sumSegments(segments);
  const atBerth = segments
    .filter((s) => s.kind === 'stay')
    .reduce((sum, s) => sum + (s.end - s.start) / HOUR_MS, 0);
  return {
    shipId: facilityId,
    from: iso(from),
    to: iso(to),
    fuel: fuelAmounts(totals.fuel),
    co2Tonnes: totals.co2g / 1e6,
    fuelOfUnknownTypeTonnes: totals.unknownFuelKg / 1000,
    distanceNm: totals.distanceNm,
    hoursUnderWay: totals.hoursUnderWay,
    hoursNotUnderWay: totals.hoursNotUnderWay,
    hoursAtBerth: atBerth,
    hoursWithoutFuelData: totals.hoursWithoutFuelData,
  };
}

/** Tonnes per fuel type of known type over whole days [from, to) (the reconciliation's flow meter side). */
export async function flowMeterTonnes(
  db: Kysely<Database>,
  facilityId: string,
  from: number,
  to: number,
): Promise<{ byType: Partial<Record<FuelType, number>>; unknownTonnes: number }> {
  const totals = sumSegments(await readLedgerSegments(db, facilityId, from, to));
  const byType: Partial<Record<FuelType, number>> = {};
  for (const f of totals.fuel)
    if (f.fuelType !== 'UNKNOWN') byType[f.fuelType] = (byType[f.fuelType] ?? 0) + f.kg / 1000;
  return { byType, unknownTonnes: totals.unknownFuelKg / 1000 };
}

/** t CO2 of a fuel type's tonnes under the IMO's Cf. */
export const imoCo2 = (fuelType: FuelType, tonnes: number) => tonnes * IMO_FUELS[fuelType].cf;
