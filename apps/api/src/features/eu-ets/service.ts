import { sql, type Kysely } from 'kysely';
import {
  addGases,
  berthScope,
  emissionsReportDeadline,
  etsPhaseIn,
  euGasesOf,
  euYearTotals,
  EXCESS_EMISSIONS_PENALTY_EUR,
  fuelByType,
  memberStateOf,
  priceOn,
  scaleGases,
  surrenderBasis,
  surrenderDeadline,
  voyageScope,
  ZERO_GASES,
  type Consumer,
  type EuFuelLine,
  type EuGases,
  type LngEngine,
  type PortScopeFlags,
  type ScopeOfLine,
} from '@portal/contracts/rules/carbon';
import { LOCODE } from '@portal/contracts/ports';
import type { EuCompanyYear, EuLine, EuShipYear, EuYearFigures, EuaPrice } from '@portal/contracts/eu-ets';
import type { Database } from '../../db/schema';
import {
  readLedgerSegments,
  readPortCalls,
  readVoyages,
  type StoredPortCall,
  type StoredSegment,
} from '../../storage';
import { notFound } from '../../errors';
import type { Caller } from '../access/caller';
import { facilityVisibleTo } from '../access/policy';
import { findOrganizationPort, findPort } from '../ports/service';
import { portRegimes } from '../ports/regimes';
import { listPrices } from './prices';

/**
 * A ship's and a company's EU MRV / EU ETS year (docs/decisions/0112-eu-ets.md), from the carbon ledger as the
 * engine stored it: the year's pieces grouped into the voyages and stays that hold them (as the IMO DCS report
 * does), each line's gases under the MRV's factors, its scope by its ports' regimes on the voyage's dates
 * (features/ports/regimes.ts), then the rules of rules/carbon/eu-ets.ts.
 */

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** The projection's window: the trailing days of data, as the CII's (docs/decisions/0107). */
export const EU_TREND_DAYS = 90;
const iso = (ms: number) => new Date(ms).toISOString();
const dayText = (ms: number) => iso(ms).slice(0, 10);
const yearStart = (year: number) => Date.UTC(year, 0, 1);

type Db = Kysely<Database>;

interface ShipRow {
  id: string;
  name: string;
  imo: string | null;
  primary_organization_id: string;
}

async function shipOf(db: Db, facilityId: string): Promise<ShipRow> {
  const row = await db
    .selectFrom('facilities')
    .select(['id', 'name', 'imo', 'primary_organization_id'])
    .where('id', '=', facilityId)
    .executeTakeFirst();
  if (!row) throw notFound('Ship not found');
  return row;
}

/** The scope flags of a call's port on a day, as the ship's organization sees the port; cached per port and day. */
function portFlags(db: Db, organizationId: string) {
  const cache = new Map<string, Promise<PortScopeFlags & { portName: string; country: string }>>();
  return (call: StoredPortCall, atMs: number) => {
    const day = dayText(atMs);
    const key = `${call.portKey}|${day}`;
    let found = cache.get(key);
    if (!found) {
      found = (async () => {
        let country = call.country;
        let area: string | null = null;
        try {
          if (call.portKey.startsWith('org:')) {
            const own = await findOrganizationPort(db, organizationId, call.portKey.slice(4));
            country = own.country;
            area = own.area;
          } else if (LOCODE.test(call.portKey)) {
            const port = await findPort(db, organizationId, call.portKey, day);
            country = port.country;
            area = port.area;
          }
        } catch {
          // A port removed since the call was derived: judged by the country the call keeps.
        }
        const regimes = portRegimes({ country, area }, day);
        return {
          eea: regimes.eea,
          outermostRegion: regimes.outermostRegion,
          memberState: memberStateOf(country),
          portName: call.portName,
          country: call.country,
        };
      })();
      cache.set(key, found);
    }
    return found;
  };
}

/** The LNG engine of each consumer that has one in the ship's channel mapping (for the methane slip). */
async function lngEngines(db: Db, facilityId: string): Promise<Partial<Record<Consumer, LngEngine>>> {
  const rows = await db
    .selectFrom('data_source_channels')
    .select(['consumer', 'lng_engine'])
    .where('facility_id', '=', facilityId)
    .where('lng_engine', 'is not', null)
    .execute();
  return Object.fromEntries(rows.map((r) => [r.consumer, r.lng_engine])) as Partial<
    Record<Consumer, LngEngine>
  >;
}

interface LineWork {
  line: EuLine;
  pieces: StoredSegment[];
  scope: ScopeOfLine;
}

/** The year of one ship: its lines, their totals, the projection (euros filled by the caller of this). */
async function shipYearCore(db: Db, ship: ShipRow, year: number) {
  const from = yearStart(year);
  const to = yearStart(year + 1);
  const segments = await readLedgerSegments(db, ship.id, from, to);
  const voyages = await readVoyages(db, ship.id, { from, to });
  const calls = await readPortCalls(db, ship.id, { from: from - 400 * DAY_MS, to: to + 400 * DAY_MS });
  const callsById = new Map(calls.map((c) => [c.id, c]));
  const flagsOf = portFlags(db, ship.primary_organization_id);
  const engines = await lngEngines(db, ship.id);

  // The year's pieces grouped into the voyages and stays holding them.
  const groups = new Map<
    string,
    { kind: 'voyage' | 'stay'; holder: string | null; pieces: StoredSegment[] }
  >();
  for (const s of segments) {
    const holder =
      s.kind === 'voyage'
        ? voyages.find((v) => v.departure <= s.start && s.start < v.arrival)
        : calls.find((c) => c.arrival <= s.start && s.start < c.departure);
    const key = holder ? `${s.kind}|${holder.id}` : `${s.kind}|${s.start}`;
    const group = groups.get(key) ?? { kind: s.kind, holder: holder?.id ?? null, pieces: [] };
    group.pieces.push(s);
    groups.set(key, group);
  }

  const work: LineWork[] = [];
  for (const g of groups.values()) {
    const fuelLines: EuFuelLine[] = g.pieces.flatMap((p) =>
      p.fuel.map((f) => ({
        fuelType: f.fuelType,
        tonnes: f.kg / 1000,
        lngEngine: f.fuelType === 'LNG' ? engines[f.consumer] : undefined,
      })),
    );
    const { gases, unknownFuelTonnes } = euGasesOf(fuelLines);
    const start = Math.min(...g.pieces.map((p) => p.start));
    const end = Math.max(...g.pieces.map((p) => p.end));
    let scope: ScopeOfLine;
    let fromEnd: EuLine['from'];
    let toEnd: EuLine['to'] = null;
    let lineStart = start;
    let lineEnd = end;
    const endOf = async (call: StoredPortCall | undefined, at: number) => {
      if (!call) return null;
      const f = await flagsOf(call, at);
      return {
        flags: f,
        end: {
          portId: call.portKey,
          portName: f.portName,
          country: f.country,
          eea: f.eea,
          outermostRegion: f.outermostRegion,
        },
      };
    };
    if (g.kind === 'voyage') {
      const voyage = voyages.find((v) => v.id === g.holder);
      if (voyage) {
        lineStart = voyage.departure;
        lineEnd = voyage.arrival;
      }
      const a = await endOf(voyage?.fromCallId ? callsById.get(voyage.fromCallId) : undefined, lineStart);
      const b = await endOf(voyage?.toCallId ? callsById.get(voyage.toCallId) : undefined, lineEnd);
      fromEnd = a?.end ?? null;
      toEnd = b?.end ?? null;
      scope = voyageScope(a?.flags ?? null, b?.flags ?? null, lineStart);
    } else {
      const call = g.holder ? callsById.get(g.holder) : undefined;
      if (call) {
        lineStart = call.arrival;
        lineEnd = call.departure;
      }
      const a = await endOf(call, lineStart);
      fromEnd = a?.end ?? null;
      scope = a ? berthScope(a.flags) : { scope: 'UNDETERMINED', share: null, outermostDerogation: false };
    }
    const share = scope.share ?? 0;
    work.push({
      pieces: g.pieces,
      scope,
      line: {
        kind: g.kind,
        id: g.holder,
        from: fromEnd,
        to: toEnd,
        start: iso(lineStart),
        end: iso(lineEnd),
        distanceNm: g.pieces.reduce((s, p) => s + p.distanceNm, 0),
        hours: g.pieces.reduce((s, p) => s + (p.end - p.start), 0) / HOUR_MS,
        fuel: fuelByType(fuelLines),
        fuelOfUnknownTypeTonnes: unknownFuelTonnes,
        gases,
        scope: scope.scope,
        share: scope.share,
        inScope: scaleGases(gases, share),
        outermostDerogation: scope.outermostDerogation,
      },
    });
  }
  work.sort((a, b) => a.pieces[0]!.start - b.pieces[0]!.start);

  const totals = euYearTotals(
    work.map((w) => ({ ...w.scope, gases: w.line.gases })),
    year,
  );
  // The projection: the in-scope basis of the trailing 90 days of data, per day, over the rest of the year.
  const firstDay = segments.length ? segments[0]!.day : null;
  const lastDay = segments.length ? Math.max(...segments.map((s) => s.day)) : null;
  let projectedAllowancesDue = totals.allowancesDue;
  if (firstDay !== null && lastDay !== null) {
    const asOf = lastDay + DAY_MS;
    const windowStart = Math.max(firstDay, asOf - EU_TREND_DAYS * DAY_MS);
    let recent = ZERO_GASES;
    for (const w of work) {
      if (!w.scope.share || w.scope.outermostDerogation) continue;
      for (const p of w.pieces) {
        if (p.day < windowStart) continue;
        const { gases } = euGasesOf(
          p.fuel.map((f) => ({
            fuelType: f.fuelType,
            tonnes: f.kg / 1000,
            lngEngine: f.fuelType === 'LNG' ? engines[f.consumer] : undefined,
          })),
        );
        recent = addGases(recent, scaleGases(gases, w.scope.share));
      }
    }
    const windowDays = (asOf - windowStart) / DAY_MS;
    const remainingDays = Math.max(0, (to - asOf) / DAY_MS);
    projectedAllowancesDue =
      totals.allowancesDue + (surrenderBasis(recent, year) / windowDays) * remainingDays * etsPhaseIn(year);
  }
  const inMrv = work.filter((w) => w.line.scope !== 'OUTSIDE' && w.line.scope !== 'UNDETERMINED');
  const mrvTotal = (['INTRA_EEA', 'FROM_EEA', 'TO_EEA', 'AT_BERTH_EEA'] as const).reduce(
    (s, k) => addGases(s, totals.byScope[k]),
    ZERO_GASES,
  );
  return {
    lines: work.map((w) => w.line),
    totals,
    mrvTotal,
    projectedAllowancesDue,
    fuelOfUnknownTypeTonnes: work.reduce((s, w) => s + w.line.fuelOfUnknownTypeTonnes, 0),
    fuel: fuelByType(inMrv.flatMap((w) => w.line.fuel)),
    distanceNm: inMrv.filter((w) => w.line.kind === 'voyage').reduce((s, w) => s + w.line.distanceNm, 0),
    hoursAtSea: inMrv.filter((w) => w.line.kind === 'voyage').reduce((s, w) => s + w.line.hours, 0),
    periodStart: firstDay === null ? null : dayText(firstDay),
    periodEnd: lastDay === null ? null : dayText(lastDay),
  };
}

type Core = Awaited<ReturnType<typeof shipYearCore>>;

function figuresOf(
  core: Pick<Core, 'totals' | 'mrvTotal' | 'projectedAllowancesDue' | 'fuelOfUnknownTypeTonnes'>,
  price: EuaPrice | null,
): EuYearFigures {
  const { totals } = core;
  return {
    mrvTotal: core.mrvTotal,
    byScope: totals.byScope,
    inScope: totals.inScope,
    derogated: totals.derogated,
    surrenderBasisTonnes: totals.surrenderBasisTonnes,
    phaseIn: totals.phaseIn,
    allowancesDue: totals.allowancesDue,
    projectedAllowancesDue: core.projectedAllowancesDue,
    eur: price ? totals.allowancesDue * price.eurPerAllowance : null,
    projectedEur: price ? core.projectedAllowancesDue * price.eurPerAllowance : null,
    fuelOfUnknownTypeTonnes: core.fuelOfUnknownTypeTonnes,
    undetermined: totals.byScope.UNDETERMINED,
  };
}

const today = () => new Date().toISOString().slice(0, 10);

function header(year: number, priceDay: string, price: EuaPrice | null) {
  return {
    year,
    surrenderDeadline: surrenderDeadline(year),
    emissionsReportDeadline: emissionsReportDeadline(year),
    priceDay,
    price,
    excessEmissionsPenaltyEur: EXCESS_EMISSIONS_PENALTY_EUR,
  };
}

/** A ship's EU MRV / ETS year (its ship is checked by the caller). */
export async function shipYear(
  db: Db,
  facilityId: string,
  year: number,
  priceDay: string = today(),
): Promise<EuShipYear> {
  const ship = await shipOf(db, facilityId);
  const core = await shipYearCore(db, ship, year);
  const price = priceOn(await listPrices(db, ship.primary_organization_id), priceDay);
  return {
    shipId: ship.id,
    shipName: ship.name,
    imoNumber: ship.imo,
    ...header(year, priceDay, price),
    periodStart: core.periodStart,
    periodEnd: core.periodEnd,
    lines: core.lines,
    figures: figuresOf(core, price),
    distanceNm: core.distanceNm,
    hoursAtSea: core.hoursAtSea,
    fuel: core.fuel,
  };
}

const sumGases = (list: readonly EuGases[]) => list.reduce(addGases, ZERO_GASES);

/**
 * The company's year: each ship of the organization (its primary organization) that the caller sees, and their sum
 * (Regulation 2015/757 as amended by 2023/957: the emissions report at company level). The organization is checked by
 * the caller of this.
 */
export async function companyYear(
  db: Db,
  caller: Caller,
  organizationId: string,
  year: number,
  priceDay: string = today(),
): Promise<EuCompanyYear> {
  const org = await db
    .selectFrom('organizations')
    .select(['id', 'name'])
    .where('id', '=', organizationId)
    .executeTakeFirst();
  if (!org) throw notFound('Organization not found');
  const ships = await db
    .selectFrom('facilities')
    .select(['id', 'name', 'imo', 'primary_organization_id'])
    .where('primary_organization_id', '=', organizationId)
    .where(facilityVisibleTo(db, caller, sql.ref('facilities.id')))
    .orderBy('name')
    .execute();
  const price = priceOn(await listPrices(db, organizationId), priceDay);
  const rows = [];
  const cores: Core[] = [];
  for (const ship of ships) {
    const core = await shipYearCore(db, ship, year);
    cores.push(core);
    rows.push({
      shipId: ship.id,
      shipName: ship.name,
      imoNumber: ship.imo,
      periodStart: core.periodStart,
      periodEnd: core.periodEnd,
      figures: figuresOf(core, price),
    });
  }
  const byScope = Object.fromEntries(
    Object.keys(cores[0]?.totals.byScope ?? euYearTotals([], year).byScope).map((k) => [
      k,
      sumGases(cores.map((c) => c.totals.byScope[k as keyof Core['totals']['byScope']])),
    ]),
  ) as Core['totals']['byScope'];
  const sum = (f: (c: Core) => number) => cores.reduce((s, c) => s + f(c), 0);
  const totals: Core['totals'] = {
    total: sumGases(cores.map((c) => c.totals.total)),
    byScope,
    inScope: sumGases(cores.map((c) => c.totals.inScope)),
    derogated: sumGases(cores.map((c) => c.totals.derogated)),
    surrenderBasisTonnes: sum((c) => c.totals.surrenderBasisTonnes),
    phaseIn: etsPhaseIn(year),
    allowancesDue: sum((c) => c.totals.allowancesDue),
  };
  const periods = rows.flatMap((r) => (r.periodStart && r.periodEnd ? [[r.periodStart, r.periodEnd]] : []));
  return {
    organizationId: org.id,
    organizationName: org.name,
    ...header(year, priceDay, price),
    periodStart: periods.length ? periods.map((p) => p[0]!).sort()[0]! : null,
    periodEnd: periods.length
      ? periods
          .map((p) => p[1]!)
          .sort()
          .at(-1)!
      : null,
    ships: rows,
    figures: figuresOf(
      {
        totals,
        mrvTotal: sumGases(cores.map((c) => c.mrvTotal)),
        projectedAllowancesDue: sum((c) => c.projectedAllowancesDue),
        fuelOfUnknownTypeTonnes: sum((c) => c.fuelOfUnknownTypeTonnes),
      },
      price,
    ),
  };
}
