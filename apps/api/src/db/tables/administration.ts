import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type GeneratedTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Bytes = ColumnType<Uint8Array, Uint8Array, Uint8Array>;

export interface MessagesTable {
  id: Generated<string>;
  title: string | null;
  text: string;
  show_from: Timestamp;
  show_to: Timestamp;
  notify: Generated<boolean>;
  type: string | null;
  is_personal: Generated<boolean>;
  facility_id: string | null;
  created_by: string | null;
  created_on: GeneratedTimestamp;
}

export interface MessageRecipientsTable {
  message_id: string;
  user_id: string;
}

export interface MessageReadsTable {
  message_id: string;
  user_id: string;
  read_on: GeneratedTimestamp;
}

export interface FacilityDocumentsTable {
  id: Generated<string>;
  facility_id: string;
  file_ref: Generated<string>;
  file_name: string;
  content_type: Generated<string>;
  content: Bytes;
  doc_type: string | null;
  visit_or_action_date: Timestamp | null;
  doc_date: Timestamp | null;
  expiry: Timestamp | null;
  equipment_tag: string | null;
  uploaded_by: string | null;
  uploaded_on: GeneratedTimestamp;
}

export interface UploadCredentialsTable {
  id: Generated<string>;
  facility_id: string;
  secret_hash: string;
  created_by: string | null;
  created_on: GeneratedTimestamp;
  last_used_on: Timestamp | null;
  revoked_on: Timestamp | null;
}

/** An organization's API key (migration 0017_api_keys); only the secret's SHA-256 is kept. */
export interface ApiKeysTable {
  id: Generated<string>;
  organization_id: string;
  name: string;
  scopes: string[];
  secret_hash: string;
  created_by: string | null;
  created_on: GeneratedTimestamp;
  expires_on: Timestamp | null;
  last_used_on: Timestamp | null;
  revoked_on: Timestamp | null;
  revoked_by: string | null;
}

export interface AdministrationTables {
  messages: MessagesTable;
  message_recipients: MessageRecipientsTable;
  message_reads: MessageReadsTable;
  facility_documents: FacilityDocumentsTable;
  upload_credentials: UploadCredentialsTable;
  api_keys: ApiKeysTable;
}
