import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storageGround } from '../../../storage/test-ground';
import { ExecutionError } from '../calculations';
import { recordFailure } from './failure';

describe('recording a failed run', () => {
  let ground: Awaited<ReturnType<typeof storageGround>>;
  beforeAll(async () => {
    ground = await storageGround();
  }, 120_000);
  afterAll(() => ground?.database.close());

  const execution = async () =>
    (
      await ground.database.db
        .insertInto('executions')
        .values({
          facility_id: ground.facilityId,
          kind: 'execute',
          period_from: new Date('2025-03-01T00:00:00Z'),
          period_to: new Date('2025-03-02T00:00:00Z'),
          state: 'running',
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const row = (id: string) =>
    ground.database.db
      .selectFrom('executions')
      .select(['state', 'error'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  const context = (retryCount: number) => ({ jobId: 'job', retryCount, retryLimit: 2 });

  it('puts the row back in the queue while retries are left, saying so', async () => {
    const id = await execution();
    expect(await recordFailure(ground.database.db, id, new Error('lost'), context(0))).toEqual({
      status: 'failed',
      error: 'lost',
      permanent: false,
    });
    expect(await row(id)).toEqual({ state: 'queued', error: 'Attempt 1 failed, retrying: lost' });
  });

  it('fails the row at the last retry, and at once for an error of the execution itself', async () => {
    const last = await execution();
    await recordFailure(ground.database.db, last, new Error('lost'), context(2));
    expect(await row(last)).toEqual({ state: 'failed', error: 'lost' });
    const permanent = await execution();
    const outcome = await recordFailure(
      ground.database.db,
      permanent,
      new ExecutionError('A cycle'),
      context(0),
    );
    expect(outcome).toMatchObject({ status: 'failed', permanent: true });
    expect((await row(permanent)).state).toBe('failed');
  });
});
