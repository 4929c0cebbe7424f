import type { Role } from '@portal/contracts/auth';

/** Who is calling: read from the database on every request, so a change of role or access applies at once. */
export interface Caller {
  userId: string;
  username: string;
  organizationId: string;
  organizationName: string;
  organizationPriority: boolean;
  role: Role;
}
