import type { Kysely } from 'kysely';
import {
  complianceBalanceGco2e,
  CONSUMER_NAMES,
  FUEL_TYPES,
  FUELEU_BORROW_LIMIT_FRACTION,
  fuelEuIntensity,
  fuelEuPenaltyEur,
  fuelEuReductionPercent,
  fuelEuShare,
  fuelEuTarget,
  fuelEuYears,
  LNG_ENGINES,
  type Consumer,
  type FuelEuFuelLine,
  type FuelEuPortStatus,
  type FuelType,
  type LngEngine,
} from '@portal/contracts/rules/carbon';
import type { FuelEuLeg, FuelEuShipYear } from '@portal/contracts/fueleu';
import type { Database } from '../../db/schema';
import {
  findPortCall,
  readLedgerExtent,
  readLedgerSegments,
  readPortCalls,
  readVoyages,
  type StoredPortCall,
  type StoredSegment,
} from '../../storage';
import { notFound } from '../../errors';
import { findOrganizationPort, findPort } from '../ports/service';
import { portRegimes } from '../ports/regimes';

/**
 * A ship's FuelEU year (Regulation (EU) 2023/1805; docs/decisions/0113-fueleu.md) from the carbon ledger: the
 * year's pieces (storage/ledger-segments.ts) grouped into the stays and voyages that hold them, each with its share
 * in scope from the ports at its ends (Art. 2(1), the ports feature's regimes on the day), the fuel in scope with
 * the LNG engines of the ship's flow channels, then the rules of packages/contracts/src/rules/carbon/fueleu.ts.
 */

const yearStart = (year: number) => Date.UTC(year, 0, 1);
const iso = (ms: number) => new Date(ms).toISOString();
const G_PER_T = 1e6;
/** The first year FuelEU applies; earlier years are never needed for a balance carried or a run of deficits. */
const FIRST_YEAR = 2025;

export interface ShipYearFigures {
  year: number;
  target: number | null;
  energyMj: number;
  intensity: number | null;
  balanceGco2e: number;
  legs: FuelEuLeg[];
  byFuel: { fuelType: FuelType; tonnes: number; energyMj: number; gco2e: number }[];
  missing: { item: string; reason: string }[];
  dataFrom: number | null;
  dataTo: number | null;
  consumers: Consumer[];
}

interface Ship {
  id: string;
  name: string;
  organizationId: string;
}

export async function shipOf(db: Kysely<Database>, facilityId: string): Promise<Ship> {
  const row = await db
    .selectFrom('facilities')
    .select(['id', 'name', 'primary_organization_id'])
    .where('id', '=', facilityId)
    .executeTakeFirst();
  if (!row) throw notFound('Ship not found');
  return { id: row.id, name: row.name, organizationId: row.primary_organization_id };
}

/** The engine kind of each LNG consumer, from the ship's flow channels' mappings. */
async function lngEngines(db: Kysely<Database>, facilityId: string): Promise<Map<string, LngEngine>> {
  const rows = await db
    .selectFrom('data_source_channels')
    .select(['consumer', 'lng_engine'])
    .where('facility_id', '=', facilityId)
    .where('lng_engine', 'is not', null)
    .execute();
  const out = new Map<string, LngEngine>();
  for (const r of rows)
    if (r.consumer && r.lng_engine && (LNG_ENGINES as readonly string[]).includes(r.lng_engine))
      out.set(r.consumer, r.lng_engine as LngEngine);
  return out;
}

/** Where a call's port lies for FuelEU on the day of its arrival (the organization's correction, else the reference). */
async function portStatus(
  db: Kysely<Database>,
  organizationId: string,
  call: StoredPortCall,
): Promise<FuelEuPortStatus> {
  const day = iso(call.arrival).slice(0, 10);
  try {
    if (call.portKey.startsWith('org:')) {
      const port = await findOrganizationPort(db, organizationId, call.portKey.slice(4));
      const r = portRegimes({ country: port.country, area: port.area }, day);
      return { memberState: r.eea, outermostRegion: r.outermostRegion };
    }
    const port = await findPort(db, organizationId, call.portKey, day);
    return { memberState: port.regimes.eea, outermostRegion: port.regimes.outermostRegion };
  } catch {
    // A port no longer known (an own port since deleted): by its country alone.
    const r = portRegimes({ country: call.country }, day);
    return { memberState: r.eea, outermostRegion: r.outermostRegion };
  }
}

/** The figures of one ship and year before banking, borrowing and pooling. */
export async function shipYearFigures(
  db: Kysely<Database>,
  ship: Ship,
  year: number,
): Promise<ShipYearFigures> {
  const from = yearStart(year);
  const to = yearStart(year + 1);
  const target = fuelEuTarget(year);
  const segments = await readLedgerSegments(db, ship.id, from, to);
  const voyages = await readVoyages(db, ship.id, { from, to });
  const calls = await readPortCalls(db, ship.id, { from, to });
  const callsById = new Map(calls.map((c) => [c.id, c]));
  for (const v of voyages)
    for (const id of [v.fromCallId, v.toCallId])
      if (id && !callsById.has(id)) {
        const call = await findPortCall(db, id);
        if (call) callsById.set(id, call);
      }
  const statusByCall = new Map<string, FuelEuPortStatus>();
  for (const call of callsById.values())
    statusByCall.set(call.id, await portStatus(db, ship.organizationId, call));
  const engines = await lngEngines(db, ship.id);

  // The pieces grouped into their stays and voyages.
  type Group = { key: string; kind: 'stay' | 'voyage'; start: number; end: number; pieces: StoredSegment[] };
  const groups = new Map<
    string,
    Group & { id: string | null; name: string; share: ReturnType<typeof fuelEuShare> }
  >();
  for (const s of segments) {
    let id: string | null;
    let name: string;
    let share: ReturnType<typeof fuelEuShare>;
    if (s.kind === 'stay') {
      const call = calls.find((c) => c.arrival <= s.start && s.start < c.departure);
      id = call?.id ?? null;
      name = call?.portName ?? '?';
      share = fuelEuShare({ kind: 'stay', port: call ? statusByCall.get(call.id)! : null });
    } else {
      const voyage = voyages.find((v) => v.departure <= s.start && s.start < v.arrival);
      const fromCall = voyage?.fromCallId ? callsById.get(voyage.fromCallId) : undefined;
      const toCall = voyage?.toCallId ? callsById.get(voyage.toCallId) : undefined;
      id = voyage?.id ?? null;
      name = `${fromCall?.portName ?? '?'} - ${toCall?.portName ?? '?'}`;
      share = fuelEuShare({
        kind: 'voyage',
        from: fromCall ? statusByCall.get(fromCall.id)! : null,
        to: toCall ? statusByCall.get(toCall.id)! : null,
      });
    }
    const key = `${s.kind}|${id ?? s.start}`;
    const group = groups.get(key) ?? {
      key,
      kind: s.kind,
      start: s.start,
      end: s.end,
      pieces: [],
      id,
      name,
      share,
    };
    group.start = Math.min(group.start, s.start);
    group.end = Math.max(group.end, s.end);
    group.pieces.push(s);
    groups.set(key, group);
  }

  const lines: FuelEuFuelLine[] = [];
  const legs: FuelEuLeg[] = [];
  let unknownKg = 0;
  let provisional = 0;
  const consumers = new Set<Consumer>();
  for (const g of groups.values()) {
    const legLines: FuelEuFuelLine[] = [];
    let tonnes = 0;
    for (const piece of g.pieces)
      for (const f of piece.fuel) {
        tonnes += f.kg / 1000;
        consumers.add(f.consumer);
        if (f.fuelType === 'UNKNOWN') {
          if (g.share.share > 0) unknownKg += f.kg;
          continue;
        }
        legLines.push({
          consumer: f.consumer,
          fuelType: f.fuelType,
          tonnes: f.kg / 1000,
          share: g.share.share,
          lngEngine: engines.get(f.consumer) ?? null,
        });
      }
    lines.push(...legLines);
    if (g.share.provisional && tonnes > 0) provisional++;
    legs.push({
      kind: g.kind,
      id: g.id,
      name: g.name,
      start: iso(g.start),
      end: iso(g.end),
      share: g.share.share,
      provisional: g.share.provisional,
      reason: g.share.reason,
      fuelTonnes: tonnes,
      energyInScopeMj: fuelEuIntensity(legLines).energyMj,
    });
  }
  legs.sort((a, b) => a.start.localeCompare(b.start));
  const result = fuelEuIntensity(lines);
  const missing: { item: string; reason: string }[] = [];
  if (unknownKg > 0)
    missing.push({
      item: 'Fuel per fuel type',
      reason: `${(unknownKg / 1000).toFixed(1)} t of fuel in scope have no known fuel type: they are not counted.`,
    });
  for (const consumer of result.unmappedLngConsumers)
    missing.push({
      item: 'LNG engine kind',
      reason: `${CONSUMER_NAMES[consumer]} burn LNG without an engine kind mapped: the highest default methane slip (3.1 %) is used.`,
    });
  if (provisional > 0)
    missing.push({
      item: 'Next port of call',
      reason:
        'The ship is at sea with its next port not known yet: its voyage counts with the share its last port allows until it arrives.',
    });
  const times = segments.map((s) => [s.start, s.end] as const);
  return {
    year,
    target,
    energyMj: result.energyMj,
    intensity: result.intensity,
    balanceGco2e:
      target !== null && result.intensity !== null
        ? complianceBalanceGco2e(target, result.intensity, result.energyMj)
        : 0,
    legs,
    byFuel: FUEL_TYPES.flatMap((f) => result.byFuel.filter((b) => b.fuelType === f)),
    missing,
    dataFrom: times.length ? Math.min(...times.map((x) => x[0])) : null,
    dataTo: times.length ? Math.max(...times.map((x) => x[1])) : null,
    consumers: [...consumers],
  };
}

export interface Flexibility {
  bankedTonnes: number;
  borrowedTonnes: number;
  updatedBy: string | null;
  updatedOn: string | null;
}

const NO_FLEXIBILITY: Flexibility = { bankedTonnes: 0, borrowedTonnes: 0, updatedBy: null, updatedOn: null };

async function flexibilityByYear(
  db: Kysely<Database>,
  facilityId: string,
): Promise<Map<number, Flexibility>> {
  const rows = await db
    .selectFrom('fueleu_flexibility')
    .selectAll()
    .where('facility_id', '=', facilityId)
    .execute();
  return new Map(
    rows.map((r) => [
      r.year,
      {
        bankedTonnes: r.banked_tonnes,
        borrowedTonnes: r.borrowed_tonnes,
        updatedBy: r.updated_by_name,
        updatedOn: iso(new Date(r.updated_on).getTime()),
      },
    ]),
  );
}

async function poolsByYear(
  db: Kysely<Database>,
  facilityId: string,
): Promise<Map<number, { id: string; name: string; allocatedTonnes: number }>> {
  const rows = await db
    .selectFrom('fueleu_pool_members as m')
    .innerJoin('fueleu_pools as p', 'p.id', 'm.pool_id')
    .select(['p.id', 'p.name', 'm.year', 'm.allocated_tonnes'])
    .where('m.facility_id', '=', facilityId)
    .execute();
  return new Map(rows.map((r) => [r.year, { id: r.id, name: r.name, allocatedTonnes: r.allocated_tonnes }]));
}

/** The share of the year the projection stretches the data to: the year's length over the days with data. */
function projectionFactor(year: number, figures: ShipYearFigures, now: number): number {
  const from = yearStart(year);
  const to = yearStart(year + 1);
  if (now >= to || figures.dataFrom === null || figures.dataTo === null) return 1;
  const start = Math.max(from, figures.dataFrom);
  const covered = Math.min(to, figures.dataTo) - start;
  return covered > 0 ? (to - start) / covered : 1;
}

/**
 * A ship's FuelEU year as the API answers it: the year's figures, its pool, banking and borrowing, and the years
 * before it from 2025 (the surplus banked into it, the borrowing it repays, the run of deficit years).
 */
export async function fuelEuShipYear(
  db: Kysely<Database>,
  facilityId: string,
  year: number,
  now = Date.now(),
): Promise<FuelEuShipYear> {
  const ship = await shipOf(db, facilityId);
  const extent = await readLedgerExtent(db, facilityId);
  const firstYear = Math.max(FIRST_YEAR, extent ? new Date(extent.from).getUTCFullYear() : year);
  const flexibility = await flexibilityByYear(db, facilityId);
  const pools = await poolsByYear(db, facilityId);
  const figures = new Map<number, ShipYearFigures>();
  for (let y = Math.min(firstYear, year); y <= year; y++)
    if (y >= FIRST_YEAR || y === year) figures.set(y, await shipYearFigures(db, ship, y));
  const years = fuelEuYears(
    [...figures.values()]
      .filter((f) => f.year >= FIRST_YEAR)
      .map((f) => ({
        year: f.year,
        balanceGco2e: f.balanceGco2e,
        pooledGco2e: pools.has(f.year) ? pools.get(f.year)!.allocatedTonnes * G_PER_T : null,
        bankedGco2e: (flexibility.get(f.year)?.bankedTonnes ?? 0) * G_PER_T,
        borrowedGco2e: (flexibility.get(f.year)?.borrowedTonnes ?? 0) * G_PER_T,
        actual: f.intensity,
      })),
  );
  const f = figures.get(year)!;
  const result = years.find((y) => y.year === year);
  const run = result?.consecutiveDeficitYears ?? 0;
  const penaltyAlone = (balance: number) =>
    f.intensity === null ? 0 : fuelEuPenaltyEur(balance, f.intensity, Math.max(1, run));
  const factor = projectionFactor(year, f, now);
  const before = result?.balanceBeforeFlexibilityGco2e ?? 0;
  const borrowLimit =
    f.target !== null && before < 0
      ? Math.min(-before, FUELEU_BORROW_LIMIT_FRACTION * f.target * f.energyMj)
      : 0;
  return {
    shipId: ship.id,
    shipName: ship.name,
    year,
    applies: f.target !== null,
    target: f.target,
    reductionPercent: fuelEuReductionPercent(year),
    dataFrom: f.dataFrom === null ? null : iso(f.dataFrom),
    dataTo: f.dataTo === null ? null : iso(f.dataTo),
    actual: {
      energyInScopeMj: f.energyMj,
      intensity: f.intensity,
      balanceTonnes: f.balanceGco2e / G_PER_T,
      penaltyEur: penaltyAlone(f.balanceGco2e),
    },
    projected: {
      energyInScopeMj: f.energyMj * factor,
      intensity: f.intensity,
      balanceTonnes: (f.balanceGco2e * factor) / G_PER_T,
      penaltyEur: penaltyAlone(f.balanceGco2e * factor),
    },
    fuel: f.byFuel.map((b) => ({
      fuelType: b.fuelType,
      tonnesInScope: b.tonnes,
      energyInScopeMj: b.energyMj,
      wtwTonnesCo2e: b.gco2e / G_PER_T,
    })),
    legs: f.legs,
    flexibility: flexibility.get(year) ?? NO_FLEXIBILITY,
    borrowLimitTonnes: borrowLimit / G_PER_T,
    pool: pools.get(year) ?? null,
    balanceBeforeFlexibilityTonnes: before / G_PER_T,
    finalBalanceTonnes: (result?.finalBalanceGco2e ?? 0) / G_PER_T,
    consecutiveDeficitYears: run,
    penaltyEur: result?.penaltyEur ?? 0,
    missing: f.missing,
    consumers: f.consumers,
  };
}
