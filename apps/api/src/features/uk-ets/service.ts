import type { Kysely } from 'kysely';
import {
  addFuelLines,
  ukEtsPeriod,
  ukEtsYear,
  UK_ETS_MIN_GROSS_TONNAGE,
  UK_ETS_REPORT_DUE,
  UK_ETS_SCOPE_NAMES,
  UK_ETS_SURRENDER_DUE,
  CONSUMERS,
  FUEL_TYPES,
  type Consumer,
  type FuelType,
  type LegFuel,
  type UkEtsLegInput,
  type UkPlace,
} from '@portal/contracts/rules/carbon';
import type { UkEtsYearRecord } from '@portal/contracts/uk-ets';
import type { Database } from '../../db/schema';
import { findPortCall, readLedgerSegments, readPortCalls, readVoyages } from '../../storage';
import type { StoredPortCall } from '../../storage';
import { notFound } from '../../errors';
import { findPort } from '../ports/service';
import { portRegimes } from '../ports/regimes';

/**
 * A ship's year under the UK ETS maritime (docs/decisions/0114-uk-ets-and-ovd.md): the ledger's pieces of the covered
 * part of the year (from 2026-07-01; rules/carbon/uk-ets.ts) grouped into the voyages and stays that hold them, each
 * placed by its ports on the call's day (Great Britain, Northern Ireland or outside the UK: features/ports/regimes.ts
 * over the port the organization sees), and summed by the pure rules.
 */

const iso = (ms: number) => new Date(ms).toISOString();
const day = (ms: number) => iso(ms).slice(0, 10);

export interface UkEtsShip {
  id: string;
  name: string;
  imo: string | null;
  shipType: string | null;
  grossTonnage: number | null;
  organizationId: string;
}

export async function ukEtsShip(db: Kysely<Database>, facilityId: string): Promise<UkEtsShip> {
  const row = await db
    .selectFrom('facilities')
    .select(['id', 'name', 'imo', 'ship_type', 'gross_tonnage', 'primary_organization_id'])
    .where('id', '=', facilityId)
    .executeTakeFirst();
  if (!row) throw notFound('Ship not found');
  return {
    id: row.id,
    name: row.name,
    imo: row.imo,
    shipType: row.ship_type,
    grossTonnage: row.gross_tonnage,
    organizationId: row.primary_organization_id,
  };
}

/** Where a call's port is for the UK ETS on the call's arrival day, as the ship's organization sees the port. */
async function placeOf(
  db: Kysely<Database>,
  organizationId: string,
  call: StoredPortCall,
): Promise<{ place: UkPlace; known: boolean }> {
  const date = day(call.arrival);
  let area: string | null = null;
  let country = call.country;
  let known = true;
  if (call.portKey.startsWith('org:')) {
    const own = await db
      .selectFrom('organization_ports')
      .select(['country', 'area'])
      .where('id', '=', call.portKey.slice(4))
      .where('organization_id', '=', organizationId)
      .executeTakeFirst();
    if (own) ({ country, area } = own);
    else known = false;
  } else {
    try {
      const port = await findPort(db, organizationId, call.portKey, date);
      country = port.country;
      area = port.area;
    } catch {
      known = false;
    }
  }
  const regimes = portRegimes({ country, area }, date);
  return { place: regimes.northernIreland ? 'NI' : regimes.uk ? 'GB' : null, known };
}

export interface UkEtsComputed {
  record: UkEtsYearRecord;
  ship: UkEtsShip;
  /** The consumers that burnt fuel of a known type in covered voyages and stays, with those types. */
  consumers: { consumer: Consumer; fuelTypes: FuelType[] }[];
}

export async function ukEtsForYear(
  db: Kysely<Database>,
  facilityId: string,
  year: number,
): Promise<UkEtsComputed> {
  const ship = await ukEtsShip(db, facilityId);
  const period = ukEtsPeriod(year);
  const notes: string[] = [];
  const shipInScope = ship.grossTonnage !== null && ship.grossTonnage >= UK_ETS_MIN_GROSS_TONNAGE;
  if (ship.grossTonnage === null)
    notes.push("The ship's gross tonnage is not entered: the UK ETS covers ships of 5,000 GT and above.");
  else if (!shipInScope)
    notes.push(
      `The ship's gross tonnage (${ship.grossTonnage}) is under 5,000: the UK ETS does not cover it. The figures are what it would count.`,
    );
  const empty = {
    shipId: facilityId,
    year,
    grossTonnage: ship.grossTonnage,
    shipInScope,
    reportDue: `${year + 1}-${UK_ETS_REPORT_DUE}`,
    surrenderDue: `${year + 1}-${UK_ETS_SURRENDER_DUE}`,
  };
  if (!period) {
    const none = { co2: 0, ch4: 0, n2o: 0, ch4Co2e: 0, n2oCo2e: 0, co2e: 0 };
    return {
      ship,
      consumers: [],
      record: {
        ...empty,
        periodStart: null,
        periodEnd: null,
        lines: [],
        withinUkPorts: none,
        betweenUkPorts: none,
        betweenGbAndNi: none,
        surrender: none,
        fuelTonnes: {},
        notes: [
          ...notes,
          'The UK ETS covers maritime emissions from 1 July 2026: none of this year is covered.',
        ],
        reportDue: null,
        surrenderDue: null,
      },
    };
  }
  const { from, to } = period;
  const segments = await readLedgerSegments(db, facilityId, from, to);
  const voyages = await readVoyages(db, facilityId, { from, to });
  const calls = await readPortCalls(db, facilityId, { from, to });
  const callsById = new Map(calls.map((c) => [c.id, c]));
  const callOf = async (id: string | null) => {
    if (id === null) return null;
    const known = callsById.get(id) ?? (await findPortCall(db, id)) ?? null;
    if (known) callsById.set(id, known);
    return known;
  };
  const places = new Map<string, { place: UkPlace; known: boolean }>();
  const placeOfCall = async (call: StoredPortCall | null): Promise<UkPlace> => {
    if (!call) return null;
    let found = places.get(call.id);
    if (!found) {
      found = await placeOf(db, ship.organizationId, call);
      places.set(call.id, found);
      if (!found.known)
        notes.push(
          `The port ${call.portName} (${call.portKey}) is no longer known: its calls are counted as outside the UK.`,
        );
    }
    return found.place;
  };

  // The year's pieces grouped into the voyage or call that holds them (a voyage across 1 July counts from then).
  interface Group {
    id: string | null;
    kind: 'stay' | 'voyage';
    start: number;
    end: number;
    call: StoredPortCall | null;
    fromCall: StoredPortCall | null;
    toCall: StoredPortCall | null;
    fuel: Map<string, LegFuel>;
  }
  const groups = new Map<string, Group>();
  for (const s of segments) {
    const voyage =
      s.kind === 'voyage' ? voyages.find((v) => v.departure <= s.start && s.start < v.arrival) : undefined;
    const call =
      s.kind === 'stay' ? calls.find((c) => c.arrival <= s.start && s.start < c.departure) : undefined;
    const id = voyage?.id ?? call?.id ?? null;
    const key = id ? `${s.kind}|${id}` : `${s.kind}|${s.start}`;
    let group = groups.get(key);
    if (!group) {
      group = {
        id,
        kind: s.kind,
        start: s.start,
        end: s.end,
        call: call ?? null,
        fromCall: voyage ? await callOf(voyage.fromCallId) : null,
        toCall: voyage ? await callOf(voyage.toCallId) : null,
        fuel: new Map(),
      };
      groups.set(key, group);
    }
    group.start = Math.min(group.start, s.start);
    group.end = Math.max(group.end, s.end);
    addFuelLines(group.fuel, s.fuel);
  }
  const ordered = [...groups.values()].sort((a, b) => a.start - b.start);
  const legs: UkEtsLegInput[] = [];
  for (const g of ordered)
    legs.push({
      kind: g.kind,
      start: g.start,
      end: g.end,
      place: await placeOfCall(g.call),
      fromPlace: await placeOfCall(g.fromCall),
      toPlace: await placeOfCall(g.toCall),
      fuel: [...g.fuel.values()],
    });
  const result = ukEtsYear(legs);
  if (result.unknownFuelTonnes > 0)
    notes.push(
      `${result.unknownFuelTonnes.toFixed(3)} t of fuel of unknown type is not counted (in what the UK ETS covers): set the fuel type of its flow meter or enter the change-over.`,
    );
  const unplaced = ordered.filter((g) => g.kind === 'voyage' && (!g.fromCall || !g.toCall)).length;
  if (unplaced)
    notes.push(
      `${unplaced} voyage${unplaced === 1 ? '' : 's'} without a known departure or arrival port (before the first call or after the last of the data) ${unplaced === 1 ? 'is' : 'are'} not counted.`,
    );
  const burnt = new Set<string>();
  result.lines.forEach((line, i) => {
    if (line.scope !== 'OUT_OF_SCOPE')
      for (const f of ordered[i]!.fuel.values()) if (f.kg > 0) burnt.add(`${f.consumer}|${f.fuelType}`);
  });
  const consumers = CONSUMERS.map((consumer) => ({
    consumer,
    fuelTypes: FUEL_TYPES.filter((t) => burnt.has(`${consumer}|${t}`)),
  })).filter((c) => c.fuelTypes.length > 0);
  return {
    ship,
    consumers,
    record: {
      ...empty,
      periodStart: day(from),
      periodEnd: day(to - 1),
      lines: result.lines.map((line, i) => {
        const g = ordered[i]!;
        return {
          kind: line.kind,
          id: g.id,
          start: iso(line.start),
          end: iso(line.end),
          port: g.call?.portName ?? null,
          fromPort: g.fromCall?.portName ?? null,
          toPort: g.toCall?.portName ?? null,
          scope: line.scope,
          scopeName: UK_ETS_SCOPE_NAMES[line.scope],
          share: line.share,
          fuelTonnes: line.fuelTonnes,
          emissions: line.emissions,
          counted: line.counted,
        };
      }),
      withinUkPorts: result.byScope.WITHIN_UK_PORT,
      betweenUkPorts: result.byScope.BETWEEN_UK_PORTS,
      betweenGbAndNi: result.byScope.BETWEEN_GB_AND_NI,
      surrender: result.surrender,
      fuelTonnes: result.fuelTonnes,
      notes,
    },
  };
}
