import type { AuditLogQuery } from '@portal/contracts/audit';

export const settingsKeys = {
  all: ['settings'] as const,
  maintenance: () => [...settingsKeys.all, 'maintenance'] as const,
};

export const auditLogKeys = {
  all: ['audit-log'] as const,
  page: (query: AuditLogQuery) => [...auditLogKeys.all, query] as const,
  actions: () => [...auditLogKeys.all, 'actions'] as const,
};
