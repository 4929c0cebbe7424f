import { useQuery } from '@tanstack/react-query';
import { LIVE_READOUT_REFRESH_MS, type LiveReadout } from '@portal/contracts/live';
import { apiRequest } from '../../lib/api';
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
