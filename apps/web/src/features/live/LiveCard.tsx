import { Box, Card, CardContent, Chip, Stack, Typography } from '@mui/material';
import { linkText, liveTimeText, liveValueLabel, liveValueText } from './display';
import { useLatestDataFollowsReadout, useLiveReadout } from './live-api';

/**
 * The ship dashboard's live readout (issue 33, docs/decisions/0129-live-readout.md): the edge node's link and the
 * latest streamed value of each channel with its time, asked again every 10 seconds, so a value moves as the ship
 * sends it. Not shown for a ship that never streamed. `latestData` is the ship list's latest data (the header's):
 * the list is asked again when the readout brings a later sample.
 */
export function LiveCard({ facilityId, latestData }: { facilityId: string; latestData?: string | null }) {
  const readout = useLiveReadout(facilityId);
  useLatestDataFollowsReadout(readout.data, latestData);
  const link = readout.data?.link;
  if (!link) return null;
  const values = readout.data?.values ?? [];
  return (
    <Card data-testid="live-readout" component="section" aria-labelledby="live-readout-title">
      <CardContent>
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={1}
          sx={{ alignItems: { sm: 'center' }, justifyContent: 'space-between', mb: 1.5 }}
        >
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <Typography variant="h6" component="h2" id="live-readout-title">
              Live
            </Typography>
            <Chip
              size="small"
              color={link.online ? 'success' : 'default'}
              label={link.online ? 'Online' : 'Offline'}
              data-testid="live-link"
            />
          </Stack>
          <Typography variant="body2" color="text.secondary" data-testid="live-link-text">
            {linkText(link)}
          </Typography>
        </Stack>
        {values.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            No values streamed in the last hour.
          </Typography>
        ) : (
          <Box
            component="ul"
            aria-label="Latest streamed values"
            sx={{
              listStyle: 'none',
              m: 0,
              p: 0,
              display: 'grid',
              gap: 1.5,
              gridTemplateColumns: {
                xs: 'repeat(2, minmax(0, 1fr))',
                sm: 'repeat(auto-fill, minmax(180px, 1fr))',
              },
            }}
          >
            {values.map((v) => {
              const label = liveValueLabel(v);
              return (
                <Box
                  component="li"
                  key={`${v.dataSourceId}/${v.channel}`}
                  data-testid={`live-value-${label}`}
                  sx={{ minWidth: 0 }}
                >
                  <Typography
                    variant="caption"
                    color="text.secondary"
                    component="div"
                    noWrap
                    title={v.localId ?? v.channel}
                  >
                    {label}
                  </Typography>
                  <Typography variant="subtitle1" component="div" data-testid="live-value-text" noWrap>
                    {liveValueText(v.value, v.unit)}
                  </Typography>
                  <Typography
                    variant="caption"
                    color="text.secondary"
                    component="div"
                    data-testid="live-value-time"
                  >
                    {liveTimeText(v)}
                  </Typography>
                </Box>
              );
            })}
          </Box>
        )}
      </CardContent>
    </Card>
  );
}
