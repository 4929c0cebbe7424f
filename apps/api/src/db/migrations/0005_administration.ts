import { sql, type Kysely } from 'kysely';

/** Broadcast and personal messages with who read them, service documents, onboard uploader credentials. */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE messages (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      title text,
      text text NOT NULL,
      show_from timestamptz NOT NULL,
      show_to timestamptz NOT NULL CHECK (show_to > show_from),
      notify boolean NOT NULL DEFAULT false,
      type text,
      is_personal boolean NOT NULL DEFAULT false,
      -- for FacilityDocuments messages: the ship the document belongs to (its users see the message)
      facility_id uuid REFERENCES facilities(id) ON DELETE CASCADE,
      created_by uuid,
      created_on timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX messages_show_idx ON messages (show_from, show_to);

    CREATE TABLE message_recipients (
      message_id uuid NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      PRIMARY KEY (message_id, user_id)
    );

    CREATE TABLE message_reads (
      message_id uuid NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      read_on timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (message_id, user_id)
    );

    CREATE TABLE facility_documents (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      facility_id uuid NOT NULL REFERENCES facilities(id) ON DELETE CASCADE,
      file_ref uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
      file_name text NOT NULL,
      content_type text NOT NULL DEFAULT 'application/octet-stream',
      content bytea NOT NULL,
      doc_type text,
      visit_or_action_date timestamptz,
      doc_date timestamptz,
      expiry timestamptz,
      equipment_tag text,
      uploaded_by uuid,
      uploaded_on timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX facility_documents_facility_idx ON facility_documents (facility_id);

    -- Credentials of the onboard uploader (Automate file upload): a secret stored as a hash, for one ship.
    CREATE TABLE upload_credentials (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      facility_id uuid NOT NULL REFERENCES facilities(id) ON DELETE CASCADE,
      secret_hash text NOT NULL,
      created_by uuid,
      created_on timestamptz NOT NULL DEFAULT now(),
      last_used_on timestamptz,
      revoked_on timestamptz
    );
    CREATE INDEX upload_credentials_facility_idx ON upload_credentials (facility_id);
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE upload_credentials, facility_documents, message_reads, message_recipients, messages CASCADE`.execute(
    db,
  );
}
