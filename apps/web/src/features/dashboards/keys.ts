import type { UptimeMode } from '@portal/contracts/rules';

export const reportDataKeys = {
  all: ['report-data'] as const,
  /** One dashboard request: the reports, the period, the ship or the filtered ships, the uptime mode. */
  request: (input: {
    reportIds: string[];
    from: Date;
    to: Date;
    facilityId?: string;
    facilityIds?: string[];
    duration?: UptimeMode;
  }) =>
    [
      ...reportDataKeys.all,
      input.reportIds,
      input.from.toISOString(),
      input.to.toISOString(),
      input.facilityId ?? null,
      input.facilityIds ?? null,
      input.duration ?? null,
    ] as const,
};
