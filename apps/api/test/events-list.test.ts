import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { EVENT_COUNT_LIMIT, type EventList } from '@portal/contracts/events';
import { startTestServer, type TestServer } from './harness';
import { openEventCounts } from '../src/features/events/queries';
import type { Caller } from '../src/features/access/caller';

/**
 * The events list (GET /api/events) of a fleet with more events than it counts: its total capped, its first page and
 * the next in the list's order, its counts of the events needing attention, each of the caller's ships only. The
 * events are of 2031, a year nothing else fills; what the list should answer is worked out here from the rows.
 */
let server: TestServer;
const db = () => server.services.database.db;
const PERIOD = { from: '2031-01-01T00:00:00.000Z', to: '2032-01-01T00:00:00.000Z' };
const NORTH_EVENTS = EVENT_COUNT_LIMIT + 3;
const SOUTH_EVENTS = 30;

interface Row {
  id: string;
  facility_id: string;
  type: string;
  attention: number;
  start_on: Date;
  classification: string | null;
  report_required: boolean;
  report_sent_on: Date | null;
  closed_on: Date | null;
  acknowledged_on: Date | null;
}
let rows: Row[] = [];
let northShips: string[] = [];
let southShips: string[] = [];
const northSees = new Set<string>();
const southSees = new Set<string>();

/** The list's order (decision 0080): attention, newest first, then id (PostgreSQL's uuid order is its hex order). */
const inListOrder = (a: Row, b: Row) =>
  a.attention - b.attention ||
  b.start_on.getTime() - a.start_on.getTime() ||
  (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Events over the year, a mix of states: closed, acknowledged, reports due, needing attention, informational. */
async function addEvents(ships: string[], count: number, seed: number) {
  await sql`
    INSERT INTO compliance_events (facility_id, type, start_on, end_on, classification, report_required, rules,
      acknowledged_on, closed_on, report_sent_on)
    SELECT (${sql.val(ships)}::uuid[])[1 + i % ${ships.length}],
      (ARRAY['scrubber-off', 'emission-exceedance', 'data-gap', 'eca-entry'])[1 + (i * 7 + ${seed}) % 4],
      ts, ts + interval '20 minutes',
      (ARRAY['transient', 'malfunction', 'repeated', NULL])[1 + (i * 3 + ${seed}) % 4],
      (i * 5 + ${seed}) % 6 = 0,
      '{}'::jsonb,
      CASE WHEN (i + ${seed}) % 5 = 0 THEN ts + interval '1 day' END,
      CASE WHEN (i + ${seed}) % 7 = 0 THEN ts + interval '2 days' END,
      CASE WHEN (i + ${seed}) % 11 = 0 THEN (ts + interval '3 days')::date END
    FROM generate_series(0, ${count - 1}) AS i,
      LATERAL (SELECT ${PERIOD.from}::timestamptz + (i * 5237 % 364) * interval '1 day'
        + (i * 97 % 1440) * interval '1 minute' AS ts) AS t
  `.execute(db());
}

beforeAll(async () => {
  server = await startTestServer({ jobs: 'none' });
  const ships = await db().selectFrom('facilities').select(['id', 'primary_organization_id']).execute();
  const { north, south } = server.seed.organizationIds;
  northShips = ships.filter((s) => s.primary_organization_id === north).map((s) => s.id);
  southShips = ships.filter((s) => s.primary_organization_id === south).map((s) => s.id);
  // What each organization's admin sees: its own ships and those shared with it.
  const shared = await db().selectFrom('organization_facility_access').selectAll().execute();
  for (const [org, seen] of [
    [north!, northSees],
    [south!, southSees],
  ] as const)
    for (const ship of ships)
      if (
        ship.primary_organization_id === org ||
        shared.some((a) => a.organization_id === org && a.facility_id === ship.id)
      )
        seen.add(ship.id);
  await addEvents(northShips, NORTH_EVENTS, 1);
  await addEvents(southShips, SOUTH_EVENTS, 2);
  rows = (await db()
    .selectFrom('compliance_events')
    .select([
      'id',
      'facility_id',
      'type',
      'attention',
      'start_on',
      'classification',
      'report_required',
      'report_sent_on',
      'closed_on',
      'acknowledged_on',
    ])
    .where('start_on', '>=', new Date(PERIOD.from))
    .where('start_on', '<', new Date(PERIOD.to))
    .execute()) as Row[];
});
afterAll(() => server.close());

/** What the list should answer for these events: its total, its page, its counts of events needing attention. */
function expected(events: Row[], offset = 0) {
  const open = events.filter((e) => e.attention <= 1);
  const openByType: Record<string, number> = {};
  const openByFacility: EventList['openByFacility'] = {};
  for (const e of open) {
    openByType[e.type] = (openByType[e.type] ?? 0) + 1;
    const ship = (openByFacility[e.facility_id] ??= { open: 0, malfunctions: 0, reportsDue: 0 });
    ship.open++;
    if (e.classification === 'malfunction' || e.classification === 'repeated') ship.malfunctions++;
    if (e.report_required && e.report_sent_on === null) ship.reportsDue++;
  }
  return {
    ids: [...events]
      .sort(inListOrder)
      .slice(offset, offset + 100)
      .map((e) => e.id),
    total: Math.min(events.length, EVENT_COUNT_LIMIT),
    totalCapped: events.length > EVENT_COUNT_LIMIT,
    openByType,
    reportsDue: open.filter((e) => e.report_required && e.report_sent_on === null).length,
    openByFacility,
  };
}

async function list(username: string, query: [string, string][] = []) {
  const response = await (
    await server.as(username)
  ).get(`/api/events?${new URLSearchParams([...Object.entries(PERIOD), ...query])}`);
  expect(response.statusCode, response.body).toBe(200);
  const body = response.json() as EventList;
  return { ...body, ids: body.items.map((e) => e.id) };
}

const answer = ({
  ids,
  total,
  totalCapped,
  openByType,
  reportsDue,
  openByFacility,
}: ReturnType<typeof expected>) => ({
  ids,
  total,
  totalCapped,
  openByType,
  reportsDue,
  openByFacility,
});

describe('the events list of a fleet with more events than it counts', () => {
  it('counts up to the bound and says there are more, with the first page in the order of attention', async () => {
    const north = rows.filter((e) => northSees.has(e.facility_id));
    expect(north.length).toBeGreaterThanOrEqual(NORTH_EVENTS);
    const got = await list('north.admin');
    expect(answer(got)).toEqual(expected(north));
    expect(got.total).toBe(EVENT_COUNT_LIMIT);
    expect(got.totalCapped).toBe(true);
    // The next page goes on where the first stopped.
    expect((await list('north.admin', [['offset', '100']])).ids).toEqual(expected(north, 100).ids);
  });

  it("counts another organization's events exactly, none of the ships it does not see among them", async () => {
    const south = rows.filter((e) => southSees.has(e.facility_id));
    expect(south.length).toBeLessThan(EVENT_COUNT_LIMIT);
    expect(south.length).toBeGreaterThanOrEqual(SOUTH_EVENTS);
    const got = await list('south.admin');
    expect(answer(got)).toEqual(expected(south));
    expect(got).toMatchObject({ total: south.length, totalCapped: false });
    // None of the ships it does not see.
    expect(got.items.filter((e) => !southSees.has(e.facilityId))).toEqual([]);
    expect(Object.keys(got.openByFacility).filter((id) => !southSees.has(id))).toEqual([]);
  });

  it('counts exactly under the bound when filtered by ship, type and state', async () => {
    const ship = northShips[0]!;
    const filtered = rows.filter(
      (e) =>
        e.facility_id === ship &&
        (e.type === 'scrubber-off' || e.type === 'data-gap') &&
        e.closed_on === null &&
        e.acknowledged_on === null,
    );
    expect(filtered.length).toBeGreaterThan(100);
    const got = await list('admin', [
      ['facilityId', ship],
      ['type', 'scrubber-off'],
      ['type', 'data-gap'],
      ['state', 'open'],
    ]);
    const { ids, total, totalCapped } = expected(filtered);
    expect({ ids: got.ids, total: got.total, totalCapped: got.totalCapped }).toEqual({
      ids,
      total,
      totalCapped,
    });
    expect(total).toBe(filtered.length);
  });
});

describe('the counts of events needing attention', () => {
  it('are read from an index alone, not from the events table', async () => {
    const admin = await db()
      .selectFrom('users')
      .select(['id', 'organization_id'])
      .where('username', '=', 'north.admin')
      .executeTakeFirstOrThrow();
    const caller = {
      userId: admin.id,
      username: 'north.admin',
      organizationId: admin.organization_id,
      organizationName: 'north',
      organizationPriority: false,
      role: 'UserAdmin',
    } as Caller;
    const query = openEventCounts(db(), caller, {
      ...PERIOD,
      type: ['data-gap', 'scrubber-off'],
      classification: undefined,
      state: undefined,
      limit: 100,
      offset: 0,
    }).compile();
    // Whatever the planner would prefer on a few rows, the plan the index allows (vacuumed, as autovacuum keeps the
    // table): a column the counts read that the index does not hold makes an index-only scan impossible.
    await sql`VACUUM compliance_events`.execute(db());
    const plan = await db()
      .transaction()
      .execute(async (trx) => {
        await sql`SET LOCAL enable_seqscan = off`.execute(trx);
        await sql`SET LOCAL enable_bitmapscan = off`.execute(trx);
        const explained = await trx.executeQuery<{ 'QUERY PLAN': string }>({
          ...query,
          sql: `EXPLAIN ${query.sql}`,
        });
        return explained.rows.map((r) => r['QUERY PLAN']);
      });
    const scans = plan.filter((line) => / on compliance_events/.test(line));
    expect(scans.length, plan.join('\n')).toBeGreaterThan(0);
    expect(
      scans.filter((line) => !line.includes('Index Only Scan')),
      plan.join('\n'),
    ).toEqual([]);
  });
});
