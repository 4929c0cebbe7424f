import { Migrator } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_EVENT_RULES } from '@portal/contracts/events';
import { migrations } from '../src/db/migrations';
import { appendRecordBookEntries } from '../src/storage/record-book';
import { openDatabase, type DatabaseHandle } from '../src/storage/database';

/**
 * Migration 0021 gives the events acknowledged before it their revisions: from the record book's acknowledgement
 * entries, in their order, or, without one, the event's own annotation as revision 1.
 */
let database: DatabaseHandle;
const T0 = new Date('2025-05-05T00:00:00.000Z');

beforeAll(async () => {
  database = await openDatabase({ dataDir: 'memory://' });
}, 60_000);
afterAll(async () => {
  await database?.close();
});

describe('migration 0021 (acknowledgement revisions)', () => {
  it('numbers the acknowledgements the record book holds, and takes the annotation of an event without one', async () => {
    const { db } = database;
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    const before = await migrator.migrateTo('0020_alert_quiet_hours');
    expect(before.error).toBeUndefined();
    const org = await db
      .insertInto('organizations')
      .values({ name: 'Migration test', link_key: 'MIGR21', email: null, phone: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    const ship = await db
      .insertInto('facilities')
      .values({ name: 'Ship', primary_organization_id: org.id })
      .returning('id')
      .executeTakeFirstOrThrow();
    const [anna, ben] = await db
      .insertInto('users')
      .values(
        ['anna', 'ben'].map((username) => ({
          organization_id: org.id,
          username,
          password_hash: 'x',
          role: 'User' as const,
        })),
      )
      .returning(['id', 'username'])
      .execute();
    const event = (acknowledged: boolean) => ({
      facility_id: ship.id,
      type: 'data-gap',
      start_on: T0,
      end_on: new Date(T0.getTime() + 3_600_000),
      rules: JSON.stringify(DEFAULT_EVENT_RULES),
      ...(acknowledged
        ? {
            acknowledged_on: new Date('2025-05-06T08:00:00.000Z'),
            acknowledged_by: anna!.id,
            cause: 'other',
            actions_taken: 'Logger restarted',
            comment: 'Second look',
          }
        : {}),
    });
    const [twice, bookless, open] = await db
      .insertInto('compliance_events')
      .values([event(true), event(true), event(false)])
      .returning('id')
      .execute();
    const acknowledgement = (
      user: { id: string; username: string },
      eventId: string,
      recordedOn: string,
      body: Record<string, string>,
    ) => ({
      kind: 'event-acknowledged',
      occurredOn: new Date(recordedOn),
      recordedBy: user.id,
      recordedByName: user.username,
      latitude: null,
      longitude: null,
      eventId,
      correctsId: null,
      body: { type: 'data-gap', typeName: 'Data gap', ...body },
    });
    await db.transaction().execute(async (trx) => {
      await appendRecordBookEntries(trx, ship.id, [
        acknowledgement(anna!, twice!.id, '2025-05-06T08:00:00.000Z', {
          cause: 'power-supply',
          causeName: 'Power supply',
          actionsTaken: 'UPS checked',
          comment: '',
        }),
        acknowledgement(ben!, twice!.id, '2025-05-07T09:00:00.000Z', {
          cause: 'other',
          causeName: 'Other',
          actionsTaken: 'Logger restarted',
          comment: 'Second look',
        }),
      ]);
    });
    // A user gone since: the revision keeps no one.
    await db.deleteFrom('users').where('id', '=', ben!.id).execute();

    const after = await migrator.migrateTo('0021_event_annotations');
    expect(after.error).toBeUndefined();
    const rows = await db
      .selectFrom('compliance_event_annotations')
      .selectAll()
      .orderBy('event_id')
      .orderBy('revision')
      .execute();
    const of = (id: string) =>
      rows
        .filter((r) => r.event_id === id)
        .map(({ event_id: _, acknowledged_on, ...r }) => ({
          ...r,
          acknowledged_on: new Date(acknowledged_on).toISOString(),
        }));
    expect(of(twice!.id)).toEqual([
      {
        revision: 1,
        cause: 'power-supply',
        actions_taken: 'UPS checked',
        comment: '',
        acknowledged_on: expect.any(String),
        acknowledged_by: anna!.id,
      },
      {
        revision: 2,
        cause: 'other',
        actions_taken: 'Logger restarted',
        comment: 'Second look',
        acknowledged_on: expect.any(String),
        acknowledged_by: null,
      },
    ]);
    expect(of(bookless!.id)).toEqual([
      {
        revision: 1,
        cause: 'other',
        actions_taken: 'Logger restarted',
        comment: 'Second look',
        acknowledged_on: '2025-05-06T08:00:00.000Z',
        acknowledged_by: anna!.id,
      },
    ]);
    expect(of(open!.id)).toEqual([]);
  });
});
