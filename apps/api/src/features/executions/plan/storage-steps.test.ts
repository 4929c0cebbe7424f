import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_EVENT_RULES } from '@portal/contracts/events';
import { engineGround } from '../../../../test/engine-fixtures';
import { ExecutionError } from '../calculations';
import { loadApprovedCalculations } from './calculations';
import { eventRulesOf, loadEventRules, loadReportFieldNames } from './names-and-rules';
import { loadShip } from './ship';

/** The plan's sub-steps that read storage, on the engine's ground (one demo ship with its calculations approved). */
describe('plan sub-steps that read storage', () => {
  let ground: Awaited<ReturnType<typeof engineGround>>;
  beforeAll(async () => {
    ground = await engineGround();
  }, 120_000);
  afterAll(() => ground?.database.close());

  it("loads the ship's constants, its primary data source and channels; a ship that is gone fails the execution", async () => {
    const ship = await loadShip(ground.database.db, ground.facilityId);
    expect(ship.dataSources.filter((d) => d.is_primary)).toHaveLength(1);
    expect(ship.channels.length).toBeGreaterThan(0);
    expect(ship.fieldName.size).toBeGreaterThan(0);
    expect(ship.constants.Facility_NumberOfScrubbers).toBeGreaterThan(0);
    expect(ship.dataEnd).not.toBeNull();
    await expect(loadShip(ground.database.db, '00000000-0000-0000-0000-000000000000')).rejects.toThrow(
      ExecutionError,
    );
  });

  it('loads the approved calculations valid in the period, none before any is valid', async () => {
    const { from, to } = ground.request();
    const calcs = await loadApprovedCalculations(ground.database.db, ground.facilityId, from, to);
    expect(calcs.measurement.length).toBeGreaterThan(0);
    expect(calcs.report.length).toBeGreaterThan(0);
    expect(calcs.measurement.every((c) => c.validFrom < to && c.validTo > from)).toBe(true);
    // The default calculations are valid from 2000 on.
    const before = await loadApprovedCalculations(ground.database.db, ground.facilityId, 0, 86_400_000);
    expect(before.measurement).toEqual([]);
  });

  it('names report fields by report and field; reads the organization’s event rules over the defaults', async () => {
    const { db } = ground.database;
    const field = (await db
      .selectFrom('report_fields')
      .select(['id', 'name', 'report_id'])
      .executeTakeFirst())!;
    expect(await loadReportFieldNames(db, [field.id])).toEqual(
      new Map([[field.id, `${field.report_id} ${field.name}`]]),
    );
    expect(await loadReportFieldNames(db, [])).toEqual(new Map());
    const ship = await loadShip(db, ground.facilityId);
    expect(await loadEventRules(db, ship.organizationId)).toEqual(DEFAULT_EVENT_RULES);
    expect(eventRulesOf({ transientMinutes: 20 })).toEqual({ ...DEFAULT_EVENT_RULES, transientMinutes: 20 });
    expect(eventRulesOf({ transientMinutes: 'soon' })).toEqual(DEFAULT_EVENT_RULES);
  });
});
