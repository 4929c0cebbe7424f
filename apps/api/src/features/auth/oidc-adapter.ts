import { sql, type Kysely } from 'kysely';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Database } from '../../db/schema';

/**
 * Storage of the embedded OpenID provider in our database (its in-memory store is for development only),
 * so that a restart or a second API process signs no one out.
 */
export function databaseAdapterFactory(db: Kysely<Database>) {
  return class DatabaseAdapter implements Adapter {
    constructor(readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      const expiresAt = expiresIn ? new Date(Date.now() + expiresIn * 1000) : null;
      const row = {
        model: this.model,
        id,
        payload: JSON.stringify(payload),
        grant_id: payload.grantId ?? null,
        user_code: payload.userCode ?? null,
        uid: payload.uid ?? null,
        account_id: payload.accountId ?? null,
        expires_at: expiresAt,
        consumed_at: null,
      };
      await db
        .insertInto('oidc_payloads')
        .values(row)
        .onConflict((oc) =>
          oc.columns(['model', 'id']).doUpdateSet({
            payload: row.payload,
            grant_id: row.grant_id,
            user_code: row.user_code,
            uid: row.uid,
            account_id: row.account_id,
            expires_at: row.expires_at,
          }),
        )
        .execute();
    }

    private async findWhere(
      column: 'id' | 'uid' | 'user_code',
      value: string,
    ): Promise<AdapterPayload | undefined> {
      const row = await db
        .selectFrom('oidc_payloads')
        .select(['payload', 'consumed_at'])
        .where('model', '=', this.model)
        .where(column, '=', value)
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', sql<Date>`now()`)]))
        .executeTakeFirst();
      if (!row) return undefined;
      const payload = (
        typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload
      ) as AdapterPayload;
      return row.consumed_at
        ? { ...payload, consumed: Math.floor(new Date(row.consumed_at).getTime() / 1000) }
        : payload;
    }

    find(id: string) {
      return this.findWhere('id', id);
    }
    findByUid(uid: string) {
      return this.findWhere('uid', uid);
    }
    findByUserCode(userCode: string) {
      return this.findWhere('user_code', userCode);
    }

    async consume(id: string): Promise<void> {
      await db
        .updateTable('oidc_payloads')
        .set({ consumed_at: new Date() })
        .where('model', '=', this.model)
        .where('id', '=', id)
        .execute();
    }

    async destroy(id: string): Promise<void> {
      await db.deleteFrom('oidc_payloads').where('model', '=', this.model).where('id', '=', id).execute();
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await db.deleteFrom('oidc_payloads').where('grant_id', '=', grantId).execute();
    }
  };
}

/** Ends every session, grant and refresh token of a user (sign-out, password change, deletion). */
export async function revokeProviderStateOf(db: Kysely<Database>, userId: string): Promise<void> {
  await db.deleteFrom('oidc_payloads').where('account_id', '=', userId).execute();
}

export async function deleteExpiredProviderState(db: Kysely<Database>): Promise<void> {
  await db
    .deleteFrom('oidc_payloads')
    .where('expires_at', '<', sql<Date>`now()`)
    .execute();
}
