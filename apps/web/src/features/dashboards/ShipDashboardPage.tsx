import { useEffect, useMemo } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Alert, Box, Button, Card, CardContent, Grid, Skeleton, Stack, Typography } from '@mui/material';
import { REPORT_CODES, complianceValues, numberValue, seriesValue } from '@portal/contracts/reports';
import {
  buildUptimeMatrix,
  capShipChartValue,
  SHIP_RATIO_CHART_CAP,
  canConfigureShips,
  formatDateTime,
  latestDataLabel,
  NOT_SPECIFIED,
  periodDays,
  ratioMarginBand,
  UPTIME_COLOURS,
  uptimeMode,
  UNKNOWN,
} from '@portal/contracts/rules';
import { useSession } from '../../lib/session';
import { useFleet } from '../../lib/fleet-context';
import { KpiWidget } from '../../ui/kpi/KpiWidget';
import { ComplianceChart } from '../../ui/kpi/ComplianceChart';
import { formatFieldValue } from '../../ui/kpi/format';
import RatioTimeChart from '../../ui/kpi/RatioTimeChart';
import UptimeMatrixChart from '../../ui/kpi/UptimeMatrixChart';
import { ExportShortcut } from '../../ui/kpi/ExportShortcut';
import { ReportInfoButton } from '../../ui/kpi/ReportInfoButton';
import { ShipImage } from '../../ui/ship/ShipImage';
import { availabilityGauge, marpolGauge } from '../../ui/kpi/options';
import { EventBandLegend, ShipEventBadge, useShipEventBands } from '../events';
import { ShipViewTabs } from '../map';
import { LiveCard } from '../live';
import { useReportsData, type ReportsDataInput } from './report-data-api';
import { ArchivedMonthsNotice } from './ArchivedMonthsNotice';
import { Co2ReductionNote } from './co2-reduction';
import { SHIP_WASHWATER_REPORTS, ShipWashwaterCard } from './ShipWashwaterCard';

const C = REPORT_CODES;

/** The ship dashboard (/ship/{id}): ship info, header KPIs, the SO2/CO2 ratio card, sub KPIs and the uptime matrix. */
export default function ShipDashboardPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const { profile } = useSession();
  const admin = canConfigureShips(profile?.roles ?? []);
  const { period, facilities, filteredFacilities } = useFleet();
  const ship = facilities?.find((f) => f.id === id);
  const excluded = Boolean(ship && filteredFacilities && !filteredFacilities.some((f) => f.id === id));
  useEffect(() => {
    // A ship the fleet filter excludes is not viewed: back to the fleet.
    if (excluded) void navigate('/', { replace: true });
  }, [excluded, navigate]);

  const filterActive = Boolean(
    facilities && filteredFacilities && filteredFacilities.length !== facilities.length,
  );
  const facilityIds = useMemo(
    () => (filterActive ? (filteredFacilities ?? []).map((f) => f.id) : undefined),
    [filterActive, filteredFacilities],
  );
  const mode = uptimeMode(period);
  const inputs = useMemo<ReportsDataInput>(
    () => ({
      reportIds: [
        C.shipMarpolCompliance,
        C.shipOperationalAvailability,
        C.shipCo2Reduction,
        C.shipSo2Co2Ratio,
        C.shipExtraRemovalOfSulfur,
        C.shipSfocImpact,
        C.shipTotalCo2Emission,
        C.shipUptime,
        ...SHIP_WASHWATER_REPORTS,
      ],
      from: period.from,
      to: period.to,
      facilityId: id,
      facilityIds,
      duration: mode,
    }),
    [period.from, period.to, id, facilityIds, mode],
  );
  const { data, loading } = useReportsData(inputs, Boolean(ship) && !excluded);
  const bands = useShipEventBands(id, period, Boolean(ship) && !excluded);

  const marpol = data[C.shipMarpolCompliance];
  const ratio = data[C.shipSo2Co2Ratio];
  const uptime = data[C.shipUptime];
  const ratioValues = useMemo(() => seriesValue(ratio, 'Values'), [ratio]);
  const limitValues = useMemo(() => seriesValue(ratio, 'Limit'), [ratio]);
  const matrix = useMemo(
    () => buildUptimeMatrix(seriesValue(uptime, 'Values'), period, mode),
    [uptime, period, mode],
  );
  const compliance = useMemo(() => complianceValues(marpol, 'Values'), [marpol]);
  const margin = numberValue(ratio, 'Facility');
  const exportCode = (code: string) => (admin ? code : undefined);

  if (facilities && !ship) {
    return (
      <Box sx={{ p: 3 }}>
        <Alert severity="warning" data-testid="ship-not-found">
          Ship not found
        </Alert>
      </Box>
    );
  }
  if (!ship) return <Skeleton variant="rounded" height={240} sx={{ m: 3 }} />;

  const availabilityValue = numberValue(data[C.shipOperationalAvailability], 'ActualAverage');
  const kpi = (reportId: string, title: string, testId: string, withFleet = false) => (
    <KpiWidget
      information={data[reportId]?.information}
      gauge={
        reportId === C.shipOperationalAvailability ? availabilityGauge(availabilityValue, 'ship') : undefined
      }
      title={title}
      testId={testId}
      loading={loading && !data[reportId]}
      value={numberValue(data[reportId], 'ActualAverage')}
      format={data[reportId]?.fields.ActualAverage?.format}
      details={[
        { label: 'Lifetime', value: numberValue(data[reportId], 'Lifetime') },
        ...(withFleet ? [{ label: 'Fleet', value: numberValue(data[reportId], 'FleetActual') }] : []),
      ]}
      exportReportCode={exportCode(reportId)}
      exportFacilityId={ship.id}
    >
      {reportId === C.shipCo2Reduction ? (
        <Co2ReductionNote
          values={[numberValue(data[reportId], 'ActualAverage'), numberValue(data[reportId], 'Lifetime')]}
          testId={`${testId}-note`}
        />
      ) : null}
    </KpiWidget>
  );

  return (
    <Box sx={{ p: { xs: 2, md: 3 } }} data-testid="ship-dashboard">
      <ShipViewTabs facilityId={ship.id} current="dashboard" />
      <ArchivedMonthsNotice data={data} />
      <Grid container spacing={2}>
        <Grid size={12} sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
          <Card data-testid="ship-info">
            <CardContent>
              <Stack
                direction={{ xs: 'column', sm: 'row' }}
                sx={{ justifyContent: 'space-between', alignItems: { sm: 'flex-start' } }}
                spacing={1}
              >
                <Stack direction="row" spacing={2} sx={{ alignItems: 'center', minWidth: 0 }}>
                  <ShipImage name={ship.name} image={ship.imageBase64} size={72} />
                  <Box sx={{ minWidth: 0 }}>
                    <Typography variant="h5" component="h1" data-testid="ship-name">
                      {ship.name}
                    </Typography>
                    <Typography variant="body2" color="text.secondary">
                      IMO {ship.imo ?? NOT_SPECIFIED} · {ship.primaryOrganizationName} ·{' '}
                      {ship.scrubberSystemType || NOT_SPECIFIED} · {ship.numberOfScrubbers ?? NOT_SPECIFIED}{' '}
                      scrubber(s) · {ship.systemManufacturer ?? UNKNOWN} ·{' '}
                      {ship.totalEffectKW
                        ? `${ship.totalEffectKW.toLocaleString('en-US')} kW`
                        : NOT_SPECIFIED}
                    </Typography>
                    <Typography variant="caption" color="text.secondary">
                      Latest data: {latestDataLabel(ship.dataTimeStampMax)}
                    </Typography>
                  </Box>
                </Stack>
                <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
                  <ShipEventBadge facilityId={ship.id} />
                  <Button variant="outlined" component={Link} to={`/facilities/${ship.id}/events`}>
                    Events
                  </Button>
                  <Button variant="outlined" component={Link} to={`/facilities/${ship.id}/record-book`}>
                    Record book
                  </Button>
                  <Button variant="outlined" component={Link} to={`/facilities/${ship.id}/fuel-records`}>
                    Fuel records
                  </Button>
                  <Button variant="outlined" component={Link} to={`/facilities/${ship.id}/inspection-packs`}>
                    Inspection packs
                  </Button>
                  {admin ? (
                    <Button
                      variant="outlined"
                      component={Link}
                      to={`/facilities/${ship.id}/config/info`}
                      data-testid="edit-ship"
                    >
                      Edit ship
                    </Button>
                  ) : null}
                </Stack>
              </Stack>
            </CardContent>
          </Card>
          {/* The latest streamed values, for a ship whose gateway streams (nothing otherwise). */}
          <LiveCard facilityId={ship.id} latestData={ship.dataTimeStampMax} />
        </Grid>

        <Grid size={{ xs: 12, md: 4 }}>
          <KpiWidget
            title="Marpol compliance"
            testId="kpi-marpol"
            loading={loading && !marpol}
            value={numberValue(marpol, 'ActualAverage')}
            format="Percent"
            information={marpol?.information}
            gauge={marpolGauge(numberValue(marpol, 'ActualAverage'))}
            details={[
              { label: 'Lifetime', value: numberValue(marpol, 'Lifetime') },
              { label: 'Fleet', value: numberValue(marpol, 'FleetActual') },
            ]}
            exportReportCode={exportCode(C.shipMarpolCompliance)}
            exportFacilityId={ship.id}
          >
            <ComplianceChart values={compliance} days={periodDays(period)} />
          </KpiWidget>
        </Grid>
        <Grid size={{ xs: 12, md: 4 }}>
          {kpi(C.shipOperationalAvailability, 'Operational availability', 'kpi-availability', true)}
        </Grid>
        <Grid size={{ xs: 12, md: 4 }}>{kpi(C.shipCo2Reduction, 'CO2 reduction', 'kpi-co2-reduction')}</Grid>

        <Grid size={12}>
          <Card data-testid="card-ship-ratio">
            <CardContent>
              <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center' }}>
                <Typography variant="h6" component="h2">
                  SO2/CO2 ratio
                </Typography>
                <Stack direction="row">
                  <ReportInfoButton
                    title="SO2/CO2 ratio"
                    information={ratio?.information}
                    testId="card-ship-ratio"
                  />
                  {admin ? <ExportShortcut reportCode={C.shipSo2Co2Ratio} facilityId={ship.id} /> : null}
                </Stack>
              </Stack>
              {loading && !ratio ? (
                <Skeleton width="50%" />
              ) : (
                <Typography
                  variant="body2"
                  color="text.secondary"
                  data-testid="ship-ratio-value"
                  data-value={numberValue(ratio, 'ActualAverage') ?? 'null'}
                >
                  Average {formatFieldValue(numberValue(ratio, 'ActualAverage'), 'Ratio')} · margin{' '}
                  {formatFieldValue(margin, 'Percent')}
                  {margin === null ? '' : ` (${ratioMarginBand(margin)})`} · limits 4.3 in an ECA, 21.7
                  outside
                </Typography>
              )}
              {loading && !ratio ? (
                <Skeleton variant="rounded" height={260} />
              ) : (
                <Box
                  data-testid="ratio-series"
                  data-points={ratioValues.length}
                  data-max={Math.max(0, ...ratioValues.map((p) => p.value ?? 0))}
                  data-bands={bands.length}
                >
                  <RatioTimeChart values={ratioValues} limits={limitValues} period={period} bands={bands} />
                  <EventBandLegend />
                  {ratioValues.some((p) => p.value !== null && capShipChartValue(p.value).capped) ? (
                    <Typography variant="caption" color="text.secondary" data-testid="ratio-cap-note">
                      Values above {SHIP_RATIO_CHART_CAP} are drawn at {SHIP_RATIO_CHART_CAP}; the highest
                      actual value is{' '}
                      {formatFieldValue(Math.max(...ratioValues.map((p) => p.value ?? 0)), 'Ratio')}.
                    </Typography>
                  ) : null}
                </Box>
              )}
            </CardContent>
          </Card>
        </Grid>

        <Grid size={{ xs: 12, md: 4 }}>
          {kpi(C.shipExtraRemovalOfSulfur, 'Extra removal of sulfur', 'kpi-extra-removal-of-sulfur')}
        </Grid>
        <Grid size={{ xs: 12, md: 4 }}>{kpi(C.shipSfocImpact, 'SFOC impact %', 'kpi-sfoc', true)}</Grid>
        <Grid size={{ xs: 12, md: 4 }}>
          {kpi(C.shipTotalCo2Emission, 'Total CO2 emission', 'kpi-total-co2-emission')}
        </Grid>

        <Grid size={12}>
          <ShipWashwaterCard
            facilityId={ship.id}
            period={period}
            data={data}
            loading={loading}
            exportAllowed={admin}
          />
        </Grid>

        <Grid size={12}>
          <Card data-testid="uptime-matrix" data-mode={matrix.mode} data-cells={JSON.stringify(matrix.cells)}>
            <CardContent>
              <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center' }}>
                <Typography variant="h6" component="h2">
                  Operational availability
                </Typography>
                <Stack direction="row">
                  <ReportInfoButton
                    title="Operational availability"
                    information={uptime?.information}
                    testId="uptime-matrix"
                  />
                  {admin ? <ExportShortcut reportCode={C.shipUptime} facilityId={ship.id} /> : null}
                </Stack>
              </Stack>
              <Typography variant="body2" color="text.secondary">
                {matrix.mode === 'hourly'
                  ? 'Hourly values (UTC), a column per day'
                  : 'Daily averages, a column per month'}{' '}
                · average {formatFieldValue(numberValue(uptime, 'ActualAverage'), 'Percent')}
              </Typography>
              <Stack direction="row" spacing={2} sx={{ my: 1, flexWrap: 'wrap' }}>
                {[
                  ['100 %', UPTIME_COLOURS.full],
                  ['Below 100 %', UPTIME_COLOURS.below],
                  ['Above 100 %', UPTIME_COLOURS.above],
                  ['No data', UPTIME_COLOURS.noData],
                ].map(([label, colour]) => (
                  <Stack key={label} direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
                    <Box sx={{ width: 12, height: 12, bgcolor: colour, border: 1, borderColor: 'divider' }} />
                    <Typography variant="caption">{label}</Typography>
                  </Stack>
                ))}
              </Stack>
              {loading && !uptime ? (
                <Skeleton variant="rounded" height={300} />
              ) : (
                <UptimeMatrixChart matrix={matrix} />
              )}
              <Typography variant="caption" color="text.secondary">
                {formatDateTime(period.from)} – {formatDateTime(period.to)} UTC
              </Typography>
            </CardContent>
          </Card>
        </Grid>
      </Grid>
    </Box>
  );
}
