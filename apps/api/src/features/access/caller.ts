import type { Role } from '@portal/contracts/auth';
import type { ApiKeyScope } from '@portal/contracts/api-keys';

/** The API key a caller presented (features/api-keys): it acts as its organization, within its scopes. */
export interface ApiKeyIdentity {
  id: string;
  name: string;
  scopes: ApiKeyScope[];
}

/**
 * Who is calling: read from the database on every request, so a change of role or access applies at once.
 *
 * A user signed in with an access token, or an organization's API key (`apiKey` set). A key is no user: its
 * `userId` is the key's own id (so nothing of a user's, such as assigned ships or read messages, is ever found
 * for it), its role the least one ('User'), and it sees the ships its organization sees (policy.ts). The app's
 * authentication hook (app.ts) lets a key reach only the routes that accept one of its scopes (`apiKeyScopes`).
 */
export interface Caller {
  userId: string;
  username: string;
  organizationId: string;
  organizationName: string;
  organizationPriority: boolean;
  role: Role;
  /**
   * The access version the caller was read at (migration 0010_access_version): what depends only on the caller and
   * on ships and access, such as the ships it sees, may be cached under it.
   */
  accessVersion?: string;
  /**
   * A Verifier's invited years (docs/decisions/0115-verifier.md): it reads its organization's ledger of these years
   * only, on the routes that say so (`config.verifier`, features/access/verifier.ts).
   */
  verifierYears?: number[];
  /** Set when the caller is an API key rather than a user. */
  apiKey?: ApiKeyIdentity;
}
