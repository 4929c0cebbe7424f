import type { Kysely } from 'kysely';
import {
  CII_RATINGS,
  CII_SHIP_TYPES,
  CII_TREND_DAYS,
  ciiForYear,
  ciiTrajectory,
  correctiveActionRequired,
  dcsReport,
  type CiiDay,
  type CiiRating,
  type CiiShipType,
  type Leg,
  type VoyageCargo,
} from '@portal/contracts/rules/carbon';
import type { CiiResult, DcsReportRecord, FleetCii } from '@portal/contracts/carbon';
import { SHIP_TYPE_NAMES, type ShipType } from '@portal/contracts/ship-particulars';
import type { Database } from '../../db/schema';
import {
  readCiiSums,
  readLedgerSegments,
  readShipsCiiInputs,
  type CiiParticulars as Particulars,
  type CiiSums,
} from '../../storage';
import { readPortCalls } from '../../storage';
import { readVoyages } from '../../storage';
import { notFound } from '../../errors';
import type { Caller } from '../access/caller';
import { facilityVisibleTo } from '../access/policy';
import { sumSegments } from '../executions/ledger-segments';
import { cargoByDeparture, DAY_MS } from './ledger';

/**
 * The ledger's yearly reports (issue 31; docs/decisions/0111-carbon-ledger-engine.md): the IMO DCS report of a ship
 * and calendar year (rules/carbon/dcs.ts over the year's pieces grouped into its voyages and stays), and the CII of
 * a ship and of the fleet (rules/carbon/cii.ts over the year's daily sums).
 */

const yearStart = (year: number) => Date.UTC(year, 0, 1);
const iso = (ms: number) => new Date(ms).toISOString();

async function particulars(db: Kysely<Database>, facilityId: string): Promise<Particulars> {
  const row = await db
    .selectFrom('facilities')
    .select(['id', 'name', 'imo', 'ship_type', 'deadweight_tonnes', 'gross_tonnage'])
    .where('id', '=', facilityId)
    .executeTakeFirst();
  if (!row) throw notFound('Ship not found');
  return {
    id: row.id,
    name: row.name,
    imo: row.imo,
    shipType: row.ship_type,
    deadweight: row.deadweight_tonnes,
    grossTonnage: row.gross_tonnage,
  };
}

/** The names of the ledger's flows (a channel, or the FUEL_FLOW field of a ship without consumers), by id. */
async function flowNames(db: Kysely<Database>, facilityId: string): Promise<Record<string, string>> {
  const channels = await db
    .selectFrom('data_source_channels')
    .select(['id', 'name'])
    .where('facility_id', '=', facilityId)
    .execute();
  const fields = await db.selectFrom('measurement_fields').select(['id', 'name']).execute();
  return Object.fromEntries([...fields, ...channels].map((c) => [c.id, c.name]));
}

/** The IMO DCS report of a ship and calendar year: every Appendix IX item the data allows, and what is missing. */
export async function dcsForYear(
  db: Kysely<Database>,
  facilityId: string,
  year: number,
): Promise<DcsReportRecord> {
  const ship = await particulars(db, facilityId);
  const from = yearStart(year);
  const to = yearStart(year + 1);
  const segments = await readLedgerSegments(db, facilityId, from, to);
  const voyages = await readVoyages(db, facilityId, { from, to });
  const calls = await readPortCalls(db, facilityId, { from, to });
  // The year's legs: its pieces grouped into the voyages and stays that hold them. A voyage across New Year keeps its
  // departure as its start, which its cargo is entered under.
  const groups = new Map<
    string,
    { kind: Leg['kind']; start: number; end: number; pieces: typeof segments }
  >();
  for (const s of segments) {
    const holder =
      s.kind === 'voyage'
        ? voyages.find((v) => v.departure <= s.start && s.start < v.arrival)
        : calls.find((c) => c.arrival <= s.start && s.start < c.departure);
    const key = holder ? `${s.kind}|${holder.id}` : `${s.kind}|${s.start}`;
    const start = holder
      ? 'departure' in holder && s.kind === 'voyage'
        ? holder.departure
        : s.start
      : s.start;
    const group = groups.get(key) ?? { kind: s.kind, start, end: s.end, pieces: [] };
    group.end = Math.max(group.end, s.end);
    group.pieces.push(s);
    groups.set(key, group);
  }
  const legs: Leg[] = [...groups.values()].map((g) => {
    const totals = sumSegments(g.pieces);
    return {
      kind: g.kind,
      start: g.start,
      end: g.end,
      call: null,
      fromCall: null,
      toCall: null,
      distanceNm: totals.distanceNm,
      hoursUnderWay: totals.hoursUnderWay,
      hoursNotUnderWay: totals.hoursNotUnderWay,
      hoursWithoutPosition: totals.hoursWithoutPosition,
      fuel: totals.fuel,
      hoursWithoutFuelData: totals.hoursWithoutFuelData,
    };
  });
  const cargo: VoyageCargo[] = [...(await cargoByDeparture(db, facilityId))].map(([departure, c]) => ({
    departure,
    laden: c.laden,
    cargoTonnes: c.cargoTonnes,
    teu: c.teu,
  }));
  const report = dcsReport({
    year,
    particulars: {
      imoNumber: ship.imo,
      shipType: ship.shipType ? SHIP_TYPE_NAMES[ship.shipType] : null,
      grossTonnage: ship.grossTonnage,
      netTonnage: null,
      deadweight: ship.deadweight,
      mainEnginePowerKw: null,
      auxiliaryEnginePowerKw: null,
      eedi: null,
      iceClass: null,
      // Every ship type of MEPC.353(78) Table 1 has a reference line: regulation 28 applies to it.
      ciiApplicable: ship.shipType !== null,
      containerShip: ship.shipType === 'CONTAINER_SHIP',
    },
    legs,
    cargo,
    shorePowerKwh: null,
    channelNames: await flowNames(db, facilityId),
    dataFrom: segments[0]?.start,
    dataTo: segments.at(-1)?.end,
  });
  return { shipId: facilityId, ...report };
}

const isCiiType = (type: ShipType | null): type is CiiShipType =>
  type !== null && (CII_SHIP_TYPES as readonly string[]).includes(type);

/** What keeps a ship from a CII rating, in the words shown; null when nothing does. */
function ciiMissing(ship: Particulars, sums: CiiSums | undefined): string | null {
  if (!ship.shipType) return "The ship's type is not entered.";
  if (!isCiiType(ship.shipType))
    return `The CII reference line of a ${SHIP_TYPE_NAMES[ship.shipType].toLowerCase()} is not in the portal yet.`;
  if (ship.shipType === 'CRUISE_PASSENGER_SHIP' ? !ship.grossTonnage : !ship.deadweight)
    return ship.shipType === 'CRUISE_PASSENGER_SHIP'
      ? "The ship's gross tonnage is not entered."
      : "The ship's deadweight is not entered.";
  if (!sums || sums.distanceNm <= 0) return 'The ship has sailed no distance in the year yet.';
  return null;
}

/**
 * A year's days as the CII rule reads them, from the sums: all but the trend window on the first day, the window on
 * its first day. The rule's year to date (the sums) and its projection (the window's rate over the rest of the year
 * from the day after the last day with data) are those of the days themselves.
 */
function ciiDays(sums: CiiSums): { days: CiiDay[]; asOf: number } {
  const asOf = sums.lastDay + DAY_MS;
  const windowStart = Math.max(sums.firstDay, asOf - CII_TREND_DAYS * DAY_MS);
  return {
    asOf,
    days: [
      {
        day: sums.firstDay,
        co2g: sums.co2g - sums.recentCo2g,
        distanceNm: sums.distanceNm - sums.recentDistanceNm,
      },
      { day: windowStart, co2g: sums.recentCo2g, distanceNm: sums.recentDistanceNm },
    ],
  };
}

function ciiOf(ship: Particulars, year: number, sums: CiiSums | undefined) {
  if (!isCiiType(ship.shipType)) return null;
  const capacityData = { shipType: ship.shipType, dwt: ship.deadweight, gt: ship.grossTonnage };
  const { days, asOf } = sums ? ciiDays(sums) : { days: [], asOf: yearStart(year) };
  return {
    capacityData,
    result: ciiForYear({ ship: capacityData, year, days, asOf, scrubberCo2g: sums?.scrubberCo2g ?? 0 }),
  };
}

/** A ship's CII of a year: attained to date, projected, required, rating, the trajectory to 2030, the scrubber's part. */
export async function ciiForShip(db: Kysely<Database>, facilityId: string, year: number): Promise<CiiResult> {
  const ship = await particulars(db, facilityId);
  const sumsOf = async (y: number) => (await readCiiSums(db, [facilityId], y))[0];
  const sums = await sumsOf(year);
  const cii = ciiOf(ship, year, sums);
  const ratings: Record<number, CiiRating> = {};
  if (cii?.result.rating) ratings[year] = cii.result.rating;
  for (const y of [year - 1, year - 2]) {
    const rating = ciiOf(ship, y, await sumsOf(y))?.result.rating;
    if (rating) ratings[y] = rating;
  }
  const r = cii?.result;
  const capacity = ship.shipType === 'CRUISE_PASSENGER_SHIP' ? ship.grossTonnage : ship.deadweight;
  return {
    shipId: facilityId,
    shipType: ship.shipType,
    capacity: capacity ?? null,
    year,
    asOf: iso(sums ? sums.lastDay + DAY_MS : yearStart(year)),
    z: r?.z ?? null,
    reference: r?.reference ?? null,
    required: r?.required ?? null,
    boundaries: r?.boundaries ?? null,
    co2Tonnes: (sums?.co2g ?? 0) / 1e6,
    fuelOfUnknownTypeTonnes: (sums?.unknownFuelKg ?? 0) / 1000,
    distanceNm: sums?.distanceNm ?? 0,
    attained: r?.attained ?? null,
    rating: r?.rating ?? null,
    projectedAttained: r?.projectedAttained ?? null,
    projectedRating: r?.projectedRating ?? null,
    scrubberPart: r?.scrubberPart ?? null,
    scrubberShare: r?.scrubberShare ?? null,
    trajectory: cii ? ciiTrajectory(cii.capacityData, r?.projectedAttained ?? r?.attained ?? null) : [],
    correctiveActionRequired: correctiveActionRequired(ratings, year),
    missing: ciiMissing(ship, sums),
  };
}

const worst = (rating: CiiRating | null) => (rating === null ? -1 : CII_RATINGS.indexOf(rating));
/** Ship names compared as String.localeCompare does, with one collator (localeCompare makes one per call). */
const byName = new Intl.Collator().compare;

/**
 * The fleet's CII card: each ship the caller sees, its rating this year and projected; D and E first. One query (the
 * ships the caller sees joined to their year sums); the rule is a few operations per ship.
 */
export async function fleetCii(db: Kysely<Database>, caller: Caller, year: number): Promise<FleetCii> {
  const ships = await readShipsCiiInputs(db, year, (id) => facilityVisibleTo(db, caller, id));
  const rows = ships.map(({ sums, ...ship }) => {
    const r = ciiOf(ship, year, sums)?.result;
    return {
      shipId: ship.id,
      shipName: ship.name,
      attained: r?.attained ?? null,
      rating: r?.rating ?? null,
      projectedAttained: r?.projectedAttained ?? null,
      projectedRating: r?.projectedRating ?? null,
      missing: ciiMissing(ship, sums),
    };
  });
  rows.sort(
    (a, b) =>
      worst(b.projectedRating) - worst(a.projectedRating) ||
      worst(b.rating) - worst(a.rating) ||
      byName(a.shipName, b.shipName),
  );
  return { year, ships: rows };
}
