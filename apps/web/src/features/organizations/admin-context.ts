import { useOutletContext } from 'react-router';
import type { OrganizationListItem } from '@portal/contracts/organizations';

/** What the administration toolbar shares with its pages. */
export interface AdminContext {
  organizations: OrganizationListItem[];
  /** The organization the toolbar names and Access management opens. */
  currentOrganizationId: string | null;
  setCurrentOrganizationId(id: string): void;
}

export const useAdmin = () => useOutletContext<AdminContext>();
