import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineGround } from '../../../../test/engine-fixtures';
import { appendRecordBookEntries } from '../../../storage';
import { recordedFuelTypes } from './fuel-types';
import { loadLedgerConfig } from './load-config';
import { fieldReader, rawReader } from './readers';
import { ledgerWindow, WINDOW_MARGIN_MS } from './window';

/** The ledger's sub-steps that read storage, on the engine's ground (one demo ship, one day, embedded database). */
describe('ledger sub-steps that read storage', () => {
  let ground: Awaited<ReturnType<typeof engineGround>>;
  beforeAll(async () => {
    ground = await engineGround();
  }, 120_000);
  afterAll(() => ground?.database.close());

  it("loads the ship's ledger configuration: its position fields and fuel flow; none for a ship that is gone", async () => {
    const { db } = ground.database;
    const config = (await loadLedgerConfig(db, ground.facilityId))!;
    const names = new Map(
      (await db.selectFrom('measurement_fields').select(['id', 'name']).execute()).map((f) => [f.id, f.name]),
    );
    expect(names.get(config.latitudeFieldId!)).toBe('LATITUDE');
    expect(names.get(config.longitudeFieldId!)).toBe('LONGITUDE');
    expect(config.inputFieldIds.has(config.latitudeFieldId!)).toBe(true);
    expect(config.dataFrom).not.toBeNull();
    expect(config.dataTo!).toBeGreaterThan(config.dataFrom!);
    expect(await loadLedgerConfig(db, '00000000-0000-0000-0000-000000000000')).toBeNull();
  });

  it('takes the window as the executed days and a day on each side when no stored call reaches over it', async () => {
    const { from, to } = ground.request();
    expect(await ledgerWindow(ground.database.db, ground.facilityId, { from, to })).toEqual({
      from: from - WINDOW_MARGIN_MS,
      to: to + WINDOW_MARGIN_MS,
    });
    // A live window of minutes (docs/decisions/0122-live-windows.md) is taken as its whole days.
    expect(
      await ledgerWindow(ground.database.db, ground.facilityId, {
        from: from + 3_600_000,
        to: from + 7_200_000,
      }),
    ).toEqual({ from: from - WINDOW_MARGIN_MS, to: from + 86_400_000 + WINDOW_MARGIN_MS });
  });

  it('reads a field as recomputed inside the executed period and as stored outside it', async () => {
    const { from, to } = ground.request();
    const field = (await ground.database.db.selectFrom('measurement_fields').select('id').executeTakeFirst())!
      .id;
    const inside = {
      timestamps: Float64Array.from([from, from + 60_000, to - 60_000]),
      values: Float64Array.from([1, 2, 3]),
    };
    const read = fieldReader(ground.database.db, ground.facilityId, {
      from,
      to,
      seriesOf: () => Promise.resolve(inside),
    });
    // Nothing is stored yet: only the recomputed part, cut to what was asked.
    const series = await read(field, from - 86_400_000, from + 120_000);
    expect([...series.timestamps]).toEqual([from, from + 60_000]);
    expect([...series.values]).toEqual([1, 2]);
    expect((await read(field, to, to + 86_400_000)).timestamps).toHaveLength(0);
  });

  it("reads a raw channel's samples of its data source, undefined for a source the data source does not have", async () => {
    const { db } = ground.database;
    const channel = (await db
      .selectFrom('data_source_channels')
      .select(['id', 'data_source_id', 'source', 'name'])
      .where('facility_id', '=', ground.facilityId)
      .where('name', '=', 'LATITUDE')
      .executeTakeFirst())!;
    const ref = {
      id: channel.id,
      dataSourceId: channel.data_source_id,
      source: channel.source,
      name: channel.name,
    };
    const { from, to } = ground.request();
    const readRaw = rawReader(db, ground.facilityId, [ref], () => ({ from, to }));
    const raw = (await readRaw(ref, from, to))!;
    expect(raw.timestamps.length).toBeGreaterThan(0);
    expect(raw.timestamps[0]).toBeGreaterThanOrEqual(from);
    expect(raw.column).toHaveLength(raw.timestamps.length);
    expect(await readRaw({ ...ref, source: 'NO_SUCH_SOURCE' }, from, to)).toBeUndefined();
  });

  it("takes the record book's fuel change-overs with a fuel type, oldest first, without the corrected ones", async () => {
    const { db } = ground.database;
    const entry = (at: string, body: Record<string, unknown>, more = {}) => ({
      kind: 'fuel-change-over',
      occurredOn: new Date(at),
      recordedBy: null,
      recordedByName: 'Test',
      latitude: null,
      longitude: null,
      eventId: null,
      correctsId: null,
      body,
      ...more,
    });
    await db.transaction().execute(async (trx) => {
      const [, wrong] = await appendRecordBookEntries(trx, ground.facilityId, [
        entry('2025-03-08T10:00:00Z', { fuelType: 'MDO_MGO' }),
        entry('2025-03-08T06:00:00Z', { fuelType: 'HFO' }),
        entry('2025-03-08T08:00:00Z', { fuelSulfurPct: 0.1 }),
      ]);
      await appendRecordBookEntries(trx, ground.facilityId, [
        entry('2025-03-08T07:00:00Z', { fuelType: 'LFO' }, { kind: 'correction', correctsId: wrong!.id }),
      ]);
    });
    expect(await recordedFuelTypes(db, ground.facilityId)).toEqual([
      { at: Date.parse('2025-03-08T07:00:00Z'), fuelType: 'LFO' },
      { at: Date.parse('2025-03-08T10:00:00Z'), fuelType: 'MDO_MGO' },
    ]);
  });
});
