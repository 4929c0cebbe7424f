import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineGround } from '../../../test/engine-fixtures';
import { ExecutionError } from './calculations';
import { loadPlan, nameOf } from './plan';

describe('load configuration and plan step', () => {
  let ground: Awaited<ReturnType<typeof engineGround>>;
  beforeAll(async () => {
    ground = await engineGround();
  }, 120_000);
  afterAll(() => ground?.database.close());

  it("loads the ship's constants, primary data source and the approved calculations, inputs first", async () => {
    const plan = await loadPlan(ground.database.db, ground.request(), ground.ports.dataHealth);
    expect(plan.primaryId).toBeDefined();
    expect(plan.order.length).toBeGreaterThan(0);
    const names = plan.order.map((id) => nameOf(plan, id));
    // Every field comes after the fields it reads.
    for (const [i, id] of plan.order.entries())
      for (const calc of plan.measurementCalcsByField.get(id) ?? [])
        for (const input of calc.inputIds)
          if (plan.fieldName.has(input) && plan.order.includes(input))
            expect(plan.order.indexOf(input), `${names[i]} reads ${nameOf(plan, input)}`).toBeLessThan(i);
    expect(plan.reportCalcsByField.size).toBeGreaterThan(0);
    expect(plan.reportFieldNames.size).toBe(plan.reportCalcsByField.size);
  });

  it('plans only the requested fields', async () => {
    const plan = await loadPlan(
      ground.database.db,
      ground.request({ measurementFieldIds: new Set(), reportFieldIds: new Set() }),
      ground.ports.dataHealth,
    );
    expect(plan.order).toEqual([]);
    expect(plan.reportCalcsByField.size).toBe(0);
  });

  it('fails the execution for a ship that no longer exists', async () => {
    await expect(
      loadPlan(
        ground.database.db,
        ground.request({ facilityId: '00000000-0000-0000-0000-000000000000' }),
        ground.ports.dataHealth,
      ),
    ).rejects.toThrow(ExecutionError);
  });
});
