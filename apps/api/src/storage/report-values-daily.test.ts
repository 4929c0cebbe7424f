import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineGround } from '../../test/engine-fixtures';
import { refreshDailyRollup } from './report-values-daily';

const H = 3_600_000;

describe('report values daily roll-up', () => {
  let ground: Awaited<ReturnType<typeof engineGround>>;
  beforeAll(async () => {
    ground = await engineGround();
  }, 120_000);
  afterAll(() => ground?.database.close());

  const daily = () =>
    ground.database.db
      .selectFrom('report_values_daily')
      .select(['value_sum', 'value_count', 'value_min', 'value_max', 'span_count'])
      .where('facility_id', '=', ground.facilityId)
      .execute();

  it("sums the day's hours; inside a transaction it is part of it, given the database it commits on its own", async () => {
    const { db } = ground.database;
    const { from, to, facilityId } = ground.request();
    const field = await db.selectFrom('report_fields').select('id').limit(1).executeTakeFirstOrThrow();
    await sql`insert into report_values (facility_id, report_field_id, span_start, value)
      values (${facilityId}::uuid, ${field.id}::uuid, ${new Date(from)}, 1),
             (${facilityId}::uuid, ${field.id}::uuid, ${new Date(from + H)}, 3),
             (${facilityId}::uuid, ${field.id}::uuid, ${new Date(from + 2 * H)}, null)`.execute(db);

    // Rolled back with the transaction it ran in.
    await db
      .transaction()
      .execute(async (trx) => {
        await refreshDailyRollup(trx, facilityId, [field.id], new Date(from), new Date(to - 1));
        expect(await trx.selectFrom('report_values_daily').select('day').execute()).toHaveLength(1);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    expect(await daily()).toEqual([]);

    await refreshDailyRollup(db, facilityId, 'all', new Date(from), new Date(to - 1));
    expect((await daily()).map((d) => [Number(d.value_sum), d.value_count, d.span_count])).toEqual([
      [4, 2, 3],
    ]);
  });
});
