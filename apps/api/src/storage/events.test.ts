import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deleteEvents,
  insertEvents,
  readEventsCrossing,
  readStoredEvents,
  readTransientStarts,
  storeAcknowledgement,
  storeEventClosed,
  storeEventReport,
  updateDerivedEvent,
  type DerivedEventColumns,
} from './events';
import { appendRecordBookEntries, findRecordBookEntry, readRecordBookKinds } from './record-book';
import { storageGround } from './test-ground';

const T0 = Date.UTC(2025, 2, 1);
const H = 3_600_000;

const derived = (
  startHour: number,
  endHour: number,
  more: Partial<DerivedEventColumns> = {},
): DerivedEventColumns => ({
  type: 'scrubber-off',
  start_on: new Date(T0 + startHour * H),
  end_on: new Date(T0 + endHour * H),
  ongoing: false,
  worst_value: null,
  limit_value: null,
  start_latitude: null,
  start_longitude: null,
  end_latitude: null,
  end_longitude: null,
  classification: 'transient',
  report_required: false,
  channel: null,
  fault: null,
  rules: '{}',
  ...more,
});

describe('compliance events and record book storage', () => {
  let ground: Awaited<ReturnType<typeof storageGround>>;
  let userId: string;
  beforeAll(async () => {
    ground = await storageGround();
    const org = await ground.database.db.selectFrom('organizations').select('id').executeTakeFirstOrThrow();
    userId = (
      await ground.database.db
        .insertInto('users')
        .values({ username: 'ground.user', password_hash: 'x', role: 'User', organization_id: org.id })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  }, 120_000);
  afterAll(() => ground?.database.close());

  it('inserts, finds, updates and deletes derived events; reads what the window and the repeated rule need', async () => {
    const { db } = ground.database;
    const ship = ground.facilityId;
    const [first, second] = [randomUUID(), randomUUID()];
    await db.transaction().execute((trx) =>
      insertEvents(trx, ship, [
        { id: first, columns: derived(1, 2) },
        { id: second, columns: derived(5, 8, { classification: 'malfunction' }) },
      ]),
    );
    expect((await readStoredEvents(db, ship, T0, T0 + 3 * H)).map((e) => e.id)).toEqual([first]);
    // An episode at 06:00 joins the event from 05:00 to 08:00; one reaching back 5 hours also the first.
    expect(await readEventsCrossing(db, ship, T0 + 6 * H, 0)).toEqual({ start: T0 + 5 * H, end: T0 + 8 * H });
    expect(await readEventsCrossing(db, ship, T0 + 6 * H, 5 * H)).toEqual({ start: T0 + H, end: T0 + 8 * H });
    expect(await readEventsCrossing(db, ship, T0, 0)).toEqual({ start: null, end: null });
    expect(await readTransientStarts(db, ship, T0, T0 + 10 * H)).toEqual([
      { start: T0 + H, type: 'scrubber-off', channel: null },
    ]);

    await db
      .transaction()
      .execute((trx) => updateDerivedEvent(trx, first, derived(1, 3, { classification: 'repeated' })));
    const [moved] = await readStoredEvents(db, ship, T0, T0 + 3 * H);
    expect(moved).toMatchObject({ id: first, classification: 'repeated', end_on: new Date(T0 + 3 * H) });

    await db.transaction().execute((trx) => deleteEvents(trx, [first]));
    expect((await readStoredEvents(db, ship, T0, T0 + 10 * H)).map((e) => e.id)).toEqual([second]);
  });

  it('keeps every acknowledgement as a revision while the event shows the last, and stores closure and report', async () => {
    const { db } = ground.database;
    const id = randomUUID();
    await db
      .transaction()
      .execute((trx) => insertEvents(trx, ground.facilityId, [{ id, columns: derived(20, 21) }]));
    const row = () =>
      db.selectFrom('compliance_events').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const firstAt = new Date(T0 + 30 * H);
    for (const [cause, at] of [
      ['operation', firstAt],
      ['power-supply', new Date(T0 + 31 * H)],
    ] as const) {
      const event = await row();
      await db
        .transaction()
        .execute((trx) =>
          storeAcknowledgement(trx, event, { cause, actionsTaken: 'Fixed', comment: '', at, by: userId }),
        );
    }
    // The first acknowledgement's time stays; the cause is the last one's.
    expect(await row()).toMatchObject({ acknowledged_on: firstAt, cause: 'power-supply' });
    const revisions = await db
      .selectFrom('compliance_event_annotations')
      .select(['revision', 'cause'])
      .where('event_id', '=', id)
      .orderBy('revision')
      .execute();
    expect(revisions).toEqual([
      { revision: 1, cause: 'operation' },
      { revision: 2, cause: 'power-supply' },
    ]);

    await db.transaction().execute(async (trx) => {
      await storeEventReport(trx, id, JSON.stringify({ shipName: 'Ground ship' }));
      await storeEventReport(trx, id, JSON.stringify({ shipName: 'Ground ship', cause: 'x' }), '2025-03-02');
      await storeEventClosed(trx, id, userId);
    });
    const closed = await row();
    expect(closed).toMatchObject({ closed_by: userId, report: { shipName: 'Ground ship', cause: 'x' } });
    expect(new Date(closed.report_sent_on!).toISOString().slice(0, 10)).toBe('2025-03-02');
  });

  it("finds a book's entry by id and reads its entries of some kinds in sequence", async () => {
    const { db } = ground.database;
    const entry = (
      kind: string,
      hour: number,
      body: Record<string, unknown>,
      correctsId: string | null = null,
    ) => ({
      kind,
      occurredOn: new Date(T0 + hour * H),
      recordedBy: null,
      recordedByName: 'Ground',
      latitude: null,
      longitude: null,
      eventId: null,
      correctsId,
      body,
    });
    const [changeOver] = await db
      .transaction()
      .execute((trx) =>
        appendRecordBookEntries(trx, ground.facilityId, [
          entry('fuel-change-over', 1, { fuelSulfurPct: 0.1 }),
        ]),
      );
    await db
      .transaction()
      .execute((trx) =>
        appendRecordBookEntries(trx, ground.facilityId, [
          entry('note', 2, { text: 'Bunkering' }),
          entry('correction', 3, { fuelSulfurPct: 0.5 }, changeOver!.id),
        ]),
      );
    expect(await findRecordBookEntry(db, ground.facilityId, changeOver!.id)).toEqual({
      kind: 'fuel-change-over',
      occurredOn: new Date(T0 + H),
      body: { fuelSulfurPct: 0.1 },
    });
    expect(await findRecordBookEntry(db, ground.facilityId, randomUUID())).toBeUndefined();
    const kinds = await readRecordBookKinds(db, ground.facilityId, ['fuel-change-over', 'correction']);
    expect(kinds.map((k) => [k.kind, k.correctsId, k.body.fuelSulfurPct])).toEqual([
      ['fuel-change-over', null, 0.1],
      ['correction', changeOver!.id, 0.5],
    ]);
  });
});
