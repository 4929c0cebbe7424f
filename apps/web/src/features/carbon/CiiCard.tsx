import '../../ui/charts/echarts-ship';
import { useMemo } from 'react';
import { Alert, Box, Card, CardContent, Grid, Skeleton, Stack, Typography } from '@mui/material';
import type { CiiResult } from '@portal/contracts/carbon';
import { formatDate } from '@portal/contracts/rules';
import { CII_SHIP_TYPE_NAMES, CII_SHIP_TYPES, type CiiShipType } from '@portal/contracts/rules/carbon';
import { EChart } from '../../ui/charts/EChart';
import { ciiGaugeOption, NEEDLE_COLOURS, trajectoryOption } from './cii-chart';
import { ciiGauge, ciiGaugeText, formatCii, formatNm, formatShare, formatTonnes } from './display';
import { RatingChip } from './RatingChip';

const isCiiType = (type: string | null): type is CiiShipType =>
  type !== null && (CII_SHIP_TYPES as readonly string[]).includes(type);

function Figure({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
  return (
    <Box data-testid={testId}>
      <Typography variant="caption" color="text.secondary" component="div">
        {label}
      </Typography>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        {children}
      </Stack>
    </Box>
  );
}

function Needles() {
  return (
    <Stack direction="row" spacing={2} sx={{ justifyContent: 'center' }} aria-hidden>
      {(
        [
          ['To date', NEEDLE_COLOURS.attained],
          ['Projected', NEEDLE_COLOURS.projected],
        ] as const
      ).map(([label, colour]) => (
        <Stack key={label} direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
          <Box sx={{ width: 16, height: 3, bgcolor: colour }} />
          <Typography variant="caption">{label}</Typography>
        </Stack>
      ))}
    </Stack>
  );
}

/** The CII of the year: the gauge with its A-E bands and both needles, the figures beside it. */
export function CiiCard({ cii, loading, failed }: { cii?: CiiResult; loading: boolean; failed: boolean }) {
  const gauge = useMemo(
    () => (cii?.boundaries ? ciiGauge(cii.boundaries, cii.attained, cii.projectedAttained) : null),
    [cii],
  );
  const option = useMemo(() => (gauge ? ciiGaugeOption(gauge) : null), [gauge]);
  return (
    <Card sx={{ height: '100%' }} data-testid="cii-card">
      <CardContent>
        <Typography variant="h6" component="h2">
          CII {cii ? cii.year : ''}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          Operational carbon intensity (MARPOL Annex VI regulation 28), g CO2 per{' '}
          {cii?.shipType === 'CRUISE_PASSENGER_SHIP' ? 'GT' : 'DWT'} and nautical mile
          {cii && isCiiType(cii.shipType) ? ` · ${CII_SHIP_TYPE_NAMES[cii.shipType]}` : ''}
        </Typography>
        {failed ? (
          <Alert severity="error">The CII could not be loaded.</Alert>
        ) : loading || !cii ? (
          <Skeleton variant="rounded" height={260} />
        ) : (
          <>
            {cii.missing ? (
              <Alert severity="info" sx={{ mb: 1 }} data-testid="cii-missing">
                No rating yet: {cii.missing}
              </Alert>
            ) : null}
            <Grid container spacing={2}>
              <Grid size={{ xs: 12, sm: 7 }}>
                {gauge && option ? (
                  <>
                    <EChart
                      option={option}
                      height={220}
                      data-testid="cii-gauge"
                      ariaLabel={ciiGaugeText(
                        cii.boundaries!,
                        cii.attained,
                        cii.rating,
                        cii.projectedAttained,
                        cii.projectedRating,
                      )}
                    />
                    <Typography
                      variant="h5"
                      component="div"
                      sx={{ textAlign: 'center', fontWeight: 600, mt: -5, position: 'relative' }}
                      data-testid="cii-attained"
                      data-value={cii.attained ?? 'null'}
                    >
                      {gauge.text}
                    </Typography>
                    <Needles />
                  </>
                ) : (
                  <Typography color="text.secondary">No required CII for this ship and year.</Typography>
                )}
              </Grid>
              <Grid size={{ xs: 12, sm: 5 }}>
                <Stack spacing={1.5}>
                  <Figure
                    label={
                      cii.attained === null
                        ? 'Attained to date'
                        : `Attained to ${formatDate(Date.parse(cii.asOf) - 1)}`
                    }
                    testId="cii-figure-attained"
                  >
                    <RatingChip rating={cii.rating} label="Rating to date" testId="cii-rating" />
                    <Typography variant="body1">{formatCii(cii.attained)}</Typography>
                  </Figure>
                  <Figure label="Projected to the year end" testId="cii-figure-projected">
                    <RatingChip
                      rating={cii.projectedRating}
                      label="Projected rating"
                      testId="cii-projected-rating"
                    />
                    <Typography variant="body1">{formatCii(cii.projectedAttained)}</Typography>
                  </Figure>
                  <Figure label={`Required${cii.z === null ? '' : ` (Z ${cii.z} %)`}`} testId="cii-required">
                    <Typography variant="body1">{formatCii(cii.required)}</Typography>
                  </Figure>
                  <Figure label="Due to the scrubber" testId="cii-scrubber">
                    <Typography variant="body1">
                      {formatCii(cii.scrubberPart)}
                      {cii.scrubberShare === null ? '' : ` (${formatShare(cii.scrubberShare)})`}
                    </Typography>
                  </Figure>
                  <Typography variant="caption" color="text.secondary">
                    {formatTonnes(cii.co2Tonnes)} CO2 over {formatNm(cii.distanceNm)}
                    {cii.fuelOfUnknownTypeTonnes > 0
                      ? `; ${formatTonnes(cii.fuelOfUnknownTypeTonnes)} of fuel of unknown type not counted`
                      : ''}
                  </Typography>
                </Stack>
              </Grid>
            </Grid>
            {cii.boundaries ? (
              <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 1 }}>
                A below {formatCii(cii.boundaries[0])} · B below {formatCii(cii.boundaries[1])} · C below{' '}
                {formatCii(cii.boundaries[2])} · D below {formatCii(cii.boundaries[3])} · E from there
              </Typography>
            ) : null}
            {cii.correctiveActionRequired ? (
              <Alert severity="warning" sx={{ mt: 1 }} data-testid="cii-corrective-action">
                Rated E, or D three years running: the ship needs a corrective action plan (SEEMP part III).
              </Alert>
            ) : null}
          </>
        )}
      </CardContent>
    </Card>
  );
}

/** The trajectory 2026-2030: the required line and its bands, and the attained value if it stays. */
export function TrajectoryCard({ cii, loading }: { cii?: CiiResult; loading: boolean }) {
  const option = useMemo(
    () => (cii && cii.trajectory.length ? trajectoryOption(cii.trajectory) : null),
    [cii],
  );
  const trajectory = cii?.trajectory ?? [];
  return (
    <Card sx={{ height: '100%' }} data-testid="cii-trajectory">
      <CardContent>
        <Typography variant="h6" component="h2">
          Trajectory to 2030
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {trajectory.length
            ? `The required CII falls each year (Z ${trajectory[0]!.z} % in ${trajectory[0]!.year} to ${trajectory.at(-1)!.z} % in ${trajectory.at(-1)!.year}). `
            : ''}
          The line is this year&apos;s {cii?.projectedAttained === null ? 'attained' : 'projected'} value if
          it stays as it is.
        </Typography>
        {loading ? (
          <Skeleton variant="rounded" height={260} />
        ) : option ? (
          <>
            <EChart
              option={option}
              height={260}
              data-testid="cii-trajectory-chart"
              ariaLabel={`CII trajectory: ${trajectory
                .map((t) => `${t.year} required ${formatCii(t.required)}, rating ${t.rating ?? 'none'}`)
                .join('; ')}`}
            />
            <Stack direction="row" spacing={1.5} useFlexGap sx={{ flexWrap: 'wrap', mt: 1 }} aria-hidden>
              <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
                <Box sx={{ width: 16, borderTop: '2px dashed #37474f' }} />
                <Typography variant="caption">Required</Typography>
              </Stack>
              <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
                <Box sx={{ width: 16, height: 3, bgcolor: NEEDLE_COLOURS.attained }} />
                <Typography variant="caption">Attained, if it stays</Typography>
              </Stack>
              <Typography variant="caption" color="text.secondary">
                Bands A (bottom) to E (top)
              </Typography>
            </Stack>
            <Box
              component="ol"
              sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, listStyle: 'none', p: 0, m: 0, mt: 1 }}
              aria-label="Rating each year"
              data-testid="cii-trajectory-ratings"
            >
              {trajectory.map((t) => (
                <Stack
                  component="li"
                  key={t.year}
                  direction="row"
                  spacing={0.5}
                  sx={{ alignItems: 'center' }}
                >
                  <Typography variant="caption">{t.year}</Typography>
                  <RatingChip rating={t.rating} label={`${t.year}`} />
                </Stack>
              ))}
            </Box>
          </>
        ) : (
          <Typography color="text.secondary">
            No trajectory without the ship&apos;s type and tonnage.
          </Typography>
        )}
      </CardContent>
    </Card>
  );
}
