import type { Role } from '@portal/contracts/auth';

/** Who is calling: read from the database on every request, so a change of role or access applies at once. */
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
}
