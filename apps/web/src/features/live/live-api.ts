import { useEffect, useRef } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { LIVE_READOUT_REFRESH_MS, type LiveReadout } from '@portal/contracts/live';
import { apiRequest } from '../../lib/api';
import { facilityKeys } from '../../lib/queries/keys';
import { liveKeys } from './keys';

/** GET facilities/{id}/live: the ship's link and latest streamed values, asked again every 10 seconds. */
export const useLiveReadout = (facilityId: string, enabled = true) =>
  useQuery({
    queryKey: liveKeys.readout(facilityId),
    queryFn: ({ signal }) =>
      apiRequest<LiveReadout>(`facilities/${encodeURIComponent(facilityId)}/live`, { signal }),
    enabled,
    refetchInterval: LIVE_READOUT_REFRESH_MS,
  });

/**
 * The ship list's latest data (the ship header's "Latest data", read from the list) follows the readout: when the
 * readout brings a sample later than the list's `dataTimeStampMax`, the lists are asked again (the stream's ingest
 * moved the ship's data range). Once per newer sample, so a list that stays behind is not asked every 10 seconds.
 */
export function useLatestDataFollowsReadout(
  readout: LiveReadout | undefined,
  latestData: string | null | undefined,
): void {
  const queryClient = useQueryClient();
  const asked = useRef(-Infinity);
  const newest = (readout?.values ?? []).reduce((m, v) => Math.max(m, Date.parse(v.sourceTime)), -Infinity);
  useEffect(() => {
    if (!Number.isFinite(newest) || newest <= asked.current) return;
    if (latestData && Date.parse(latestData) >= newest) return;
    asked.current = newest;
    void queryClient.invalidateQueries({ queryKey: facilityKeys.list({}) });
  }, [newest, latestData, queryClient]);
}
