import { sql } from 'kysely';
import type { AlertSnapshot } from '@portal/contracts/alerts';
import { DAY_MS } from '@portal/contracts/rules';
import { jobQueueOf, type Services } from '../../services';
import { JOB_NAMES, type AlertEmailJob } from '../../jobs/contract';
import { composeDigestMail } from './render';
import { unsubscribeKey, unsubscribeLinks, unsubscribeToken } from './unsubscribe';

/** The day (UTC) as YYYY-MM-DD. */
export const utcDay = (ms: number) => new Date(Math.floor(ms / DAY_MS) * DAY_MS).toISOString().slice(0, 10);

/**
 * The daily digests of a day (UTC): for each user with e-mails held for the digest (their alerts of that day),
 * one e-mail listing them, oldest first. Idempotent: the digest's idempotency key is the user and the day, and the
 * held deliveries it lists become "digested" in the same transaction; held deliveries that arrive after a day's
 * digest went out get a digest of their own. Returns the digests composed.
 */
export async function composeDigests(services: Services, day: string): Promise<number> {
  const { db } = services.database;
  const from = new Date(`${day}T00:00:00.000Z`);
  if (Number.isNaN(from.getTime())) throw new Error(`Not a day: ${day}`);
  const to = new Date(from.getTime() + DAY_MS);
  const users = await db
    .selectFrom('alert_deliveries as d')
    .innerJoin('alerts as a', 'a.id', 'd.alert_id')
    .select('d.user_id')
    .distinct()
    .where('d.status', '=', 'held')
    .where('a.created_on', '>=', from)
    .where('a.created_on', '<', to)
    .execute();
  let composed = 0;
  const linkKey = await unsubscribeKey(db);
  for (const { user_id: userId } of users) {
    const made = await db.transaction().execute(async (trx) => {
      const held = await trx
        .selectFrom('alert_deliveries as d')
        .innerJoin('alerts as a', 'a.id', 'd.alert_id')
        .select(['d.id', 'd.address', 'a.kind', 'a.snapshot', 'a.created_on'])
        .where('d.user_id', '=', userId)
        .where('d.status', '=', 'held')
        .where('a.created_on', '>=', from)
        .where('a.created_on', '<', to)
        .orderBy('a.created_on')
        .orderBy('a.id')
        .forUpdate()
        .execute();
      if (!held.length) return false;
      const address = held[held.length - 1]!.address;
      const mail = composeDigestMail(
        day,
        held.map((h) => ({ kind: h.kind, snapshot: h.snapshot as AlertSnapshot })),
        services.config.publicUrl,
        unsubscribeLinks(services.config.publicUrl, unsubscribeToken(linkKey, userId)).page,
      );
      const first = await trx
        .selectFrom('alert_deliveries')
        .select('id')
        .where('idempotency_key', '=', `digest:${userId}:${day}`)
        .executeTakeFirst();
      const key = first ? `digest:${userId}:${day}:${held[0]!.id}` : `digest:${userId}:${day}`;
      const digest = await trx
        .insertInto('alert_deliveries')
        .values({
          idempotency_key: key,
          user_id: userId,
          channel: 'email',
          kind: 'digest',
          digest_day: day,
          status: 'pending',
          address,
          subject: mail.subject,
          text_body: mail.text,
          html_body: mail.html,
        })
        .onConflict((oc) => oc.column('idempotency_key').doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!digest) return false;
      await trx
        .updateTable('alert_deliveries')
        .set({ status: 'digested', digest_id: digest.id })
        .where(
          'id',
          'in',
          held.map((h) => h.id),
        )
        .execute();
      const job: AlertEmailJob = { deliveryIds: [digest.id] };
      await jobQueueOf(services).sendInTransaction(trx, JOB_NAMES.alertEmail, job);
      return true;
    });
    if (made) composed++;
  }
  return composed;
}

/**
 * The days whose digests are due at `now`: every day before today with e-mails still held, yesterday only from the
 * digest hour (ALERTS_DIGEST_HOUR, UTC) on.
 */
export async function dueDigestDays(services: Services, now: number): Promise<string[]> {
  const { db } = services.database;
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const hour = Math.floor((now - today) / 3_600_000);
  const until = hour >= services.config.ALERTS_DIGEST_HOUR ? today : today - DAY_MS;
  const rows = await db
    .selectFrom('alert_deliveries as d')
    .innerJoin('alerts as a', 'a.id', 'd.alert_id')
    .select(sql<string>`to_char(a.created_on at time zone 'UTC', 'YYYY-MM-DD')`.as('day'))
    .distinct()
    .where('d.status', '=', 'held')
    .where('a.created_on', '<', new Date(until))
    .execute();
  return rows.map((r) => r.day).sort();
}
