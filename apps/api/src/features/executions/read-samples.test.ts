import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineGround } from '../../../test/engine-fixtures';
import { loadPlan } from './plan';
import { readSamples } from './read-samples';

describe('read samples step', () => {
  let ground: Awaited<ReturnType<typeof engineGround>>;
  beforeAll(async () => {
    ground = await engineGround();
  }, 120_000);
  afterAll(() => ground?.database.close());

  it("reads the primary data source's timestamps of the period and the channels the calculations read", async () => {
    const request = ground.request();
    const plan = await loadPlan(ground.database.db, request, ground.ports.dataHealth);
    const samples = await readSamples(ground.database.db, plan);
    // One day at one sample a minute.
    expect(samples.primaryTimestamps.length).toBe(1440);
    expect(samples.primaryTimestamps[0]).toBeGreaterThanOrEqual(request.from);
    expect(samples.primaryTimestamps[samples.primaryTimestamps.length - 1]).toBeLessThan(request.to);
    const primary = samples.rawBySource.get(plan.primaryId!)!;
    const read = new Set(Object.keys(primary.columns));
    for (const id of plan.order)
      for (const calc of plan.measurementCalcsByField.get(id) ?? [])
        for (const input of calc.inputIds) {
          const channel = plan.channelById.get(input);
          if (channel) expect(read.has(channel.source), channel.name).toBe(true);
        }
    expect(samples.latitude?.name).toMatch(/latitude/i);
  });

  it('reads nothing when no measurement field is recomputed', async () => {
    const plan = await loadPlan(
      ground.database.db,
      ground.request({ measurementFieldIds: new Set() }),
      ground.ports.dataHealth,
    );
    const samples = await readSamples(ground.database.db, plan);
    expect(samples.rawBySource.size).toBe(0);
    expect(samples.primaryTimestamps.length).toBe(0);
  });
});
