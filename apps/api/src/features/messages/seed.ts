import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';

const DAY_MS = 86_400_000;

/**
 * Two demo messages so the bell has content: a broadcast note for everyone, and a personal welcome for
 * north.olav flagged notify (the bell opens by itself until he marks it read). Idempotent by title.
 */
export async function seedMessages(db: Kysely<Database>): Promise<void> {
  const now = Date.now();
  const showFrom = new Date(now - DAY_MS);
  const showTo = new Date(now + 365 * DAY_MS);
  const exists = async (title: string) =>
    Boolean(await db.selectFrom('messages').select('id').where('title', '=', title).executeTakeFirst());

  const broadcast = 'New fleet dashboard';
  if (!(await exists(broadcast))) {
    await db
      .insertInto('messages')
      .values({
        title: broadcast,
        text: 'The fleet dashboard now shows Marpol compliance, SO2/CO2 ratio, operational availability and SFOC impact for the period you choose.\nUse the filter button next to My fleet to narrow the ships.',
        show_from: showFrom,
        show_to: showTo,
        notify: false,
      })
      .execute();
  }

  const welcome = 'Welcome to the portal';
  if (!(await exists(welcome))) {
    const olav = await db
      .selectFrom('users')
      .select('id')
      .where('username', '=', 'north.olav')
      .executeTakeFirst();
    if (!olav) return;
    const { id } = await db
      .insertInto('messages')
      .values({
        title: welcome,
        text: 'Your account has been set up with access to two ships of Nordic Bulk Carriers.\nUpload logger files under Ships, and the dashboards fill in once the calculations have run.',
        show_from: showFrom,
        show_to: showTo,
        notify: true,
        is_personal: true,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.insertInto('message_recipients').values({ message_id: id, user_id: olav.id }).execute();
  }
}
