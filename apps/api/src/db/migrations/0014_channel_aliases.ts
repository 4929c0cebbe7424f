import { sql, type Kysely } from 'kysely';

/**
 * An organization's own names of logger columns per measurement field (features/datasources/suggestions.ts): the
 * suggested mappings take them beside the known aliases of packages/contracts (channel-suggestions.ts).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE channel_aliases (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      field text NOT NULL,
      alias text NOT NULL,
      created_by uuid,
      created_on timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX channel_aliases_key ON channel_aliases (organization_id, upper(field), lower(alias));
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE channel_aliases`.execute(db);
}
