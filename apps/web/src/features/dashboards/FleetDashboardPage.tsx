import { useMemo } from 'react';
import { Link } from 'react-router';
import { Box, Button, Card, CardActionArea, CardContent, Grid, Stack, Typography } from '@mui/material';
import MapOutlinedIcon from '@mui/icons-material/MapOutlined';
import { REPORT_CODES, facilityListValue, numberValue } from '@portal/contracts/reports';
import {
  canUseReportConfigurator,
  capMarginChartValue,
  formatDate,
  latestDataLabel,
  NOT_SPECIFIED,
  RATIO_GAUGE,
  ratioMarginBand,
  SFOC_GAUGE,
} from '@portal/contracts/rules';
import { formatFieldValue as formatFieldValueText } from '../../ui/kpi/format';
import { useSession } from '../../lib/session';
import { useFleet } from '../../lib/fleet-context';
import { KpiWidget } from '../../ui/kpi/KpiWidget';
import { GaugeCard } from '../../ui/kpi/GaugeCard';
import { ShipBarChart } from '../../ui/kpi/ShipBarChart';
import {
  availabilityGauge,
  MARGIN_AXIS_NAME,
  marginBars,
  marpolGauge,
  ratioGauge,
  sfocGauge,
  type ShipBarOptions,
} from '../../ui/kpi/options';
import { ShipImage } from '../../ui/ship/ShipImage';
import { OpenEventsCard, ShipEventBadge } from '../events';
import { FleetCiiCard } from '../carbon';
import { useReportsData, type ReportsDataInput } from './report-data-api';
import { ArchivedMonthsNotice } from './ArchivedMonthsNotice';
import { Co2ReductionNote } from './co2-reduction';

const C = REPORT_CODES;
const HEADER = [
  {
    id: C.fleetExtraRemovalOfSulfur,
    title: 'Extra removal of sulfur',
    testId: 'kpi-extra-removal-of-sulfur',
  },
  { id: C.fleetCo2Reduction, title: 'CO2 reduction', testId: 'kpi-co2-reduction' },
  { id: C.fleetTotalCo2Emission, title: 'Total CO2 emission', testId: 'kpi-total-co2-emission' },
] as const;
const LARGE = [
  C.fleetMarpolCompliance,
  C.fleetSo2Co2Ratio,
  C.fleetOperationalAvailability,
  C.fleetSfocImpact,
  C.fleetWashwaterCompliance,
] as const;

const percentBars: ShipBarOptions = { unit: '%', format: 'Percent', min: 0, max: 100 };
const availabilityBars: ShipBarOptions = { unit: '%', format: 'Percent', min: 0 };
const sfocBars: ShipBarOptions = {
  unit: '%',
  format: 'Percent',
  min: 0,
  axisStep: SFOC_GAUGE.chartAxisStep,
};
/** One measure with the gauge: the margin, on the gauge's scale, the limit (margin 0) marked. */
const marginBarsOptions: ShipBarOptions = {
  unit: '%',
  format: 'Percent',
  min: RATIO_GAUGE.min,
  max: RATIO_GAUGE.max,
  axisStep: 10,
  labelsAt: RATIO_GAUGE.stops,
  cap: capMarginChartValue,
  axisName: MARGIN_AXIS_NAME,
  lines: [{ value: 0, label: 'Limit' }],
};

/** The report call of the fleet dashboard (also started at application start, shell/startup.ts). */
export const fleetDashboardInputs = (
  period: { from: Date; to: Date },
  facilityIds: string[] | undefined,
): ReportsDataInput => ({
  reportIds: [...HEADER.map((h) => h.id), ...LARGE],
  from: period.from,
  to: period.to,
  facilityIds,
});

/** The fleet dashboard (/): header KPIs, the open events, the large cards, an info card per ship of the fleet filter. */
export default function FleetDashboardPage() {
  const { isSystemAdmin } = useSessionInfo();
  const { period, facilities, filteredFacilities, filter } = useFleet();
  // Without filter criteria the fleet is every ship the caller sees: the reports need not wait for the ship list.
  const noCriteria = [
    filter.facilities,
    filter.organizations,
    filter.scrubberSystemTypes,
    filter.numberOfScrubbers,
    filter.systemManufacturers,
  ].every((c) => c.length === 0);
  const filterActive =
    !noCriteria &&
    Boolean(facilities && filteredFacilities && filteredFacilities.length !== facilities.length);
  const facilityIds = useMemo(
    () => (filterActive ? (filteredFacilities ?? []).map((f) => f.id) : undefined),
    [filterActive, filteredFacilities],
  );
  const inputs = useMemo(() => fleetDashboardInputs(period, facilityIds), [period, facilityIds]);
  const { data, loading } = useReportsData(inputs, noCriteria || Boolean(filteredFacilities));
  const names = useMemo(() => new Map((facilities ?? []).map((f) => [f.id, f.name])), [facilities]);
  const exportCode = (code: string) => (isSystemAdmin ? code : undefined);

  const bars = (reportId: string, field = 'Facilities') =>
    facilityListValue(data[reportId], field).map((i) => ({
      facilityId: i.facilityId,
      name: names.get(i.facilityId) ?? i.facilityId,
      value: i.value,
    }));
  const marpol = data[C.fleetMarpolCompliance];
  const ratio = data[C.fleetSo2Co2Ratio];
  const availability = data[C.fleetOperationalAvailability];
  const sfoc = data[C.fleetSfocImpact];
  const washwater = data[C.fleetWashwaterCompliance];
  // A ship without an hour of discharge has no share (no bar): named, so an empty place is not read as 0 %.
  const washwaterByShip = new Map(
    facilityListValue(washwater, 'Facilities').map((i) => [i.facilityId, i.value]),
  );
  const withoutDischarge = (filteredFacilities ?? [])
    .filter((f) => (washwaterByShip.get(f.id) ?? null) === null)
    .map((f) => f.name);
  const shipRatios = new Map(facilityListValue(ratio, 'Values').map((i) => [i.facilityId, i.value]));
  const shipLimits = new Map(facilityListValue(ratio, 'Limit').map((i) => [i.facilityId, i.value]));
  const fleetMargin = numberValue(ratio, 'ActualAverage');
  const marpolByShip = new Map(facilityListValue(marpol, 'Facilities').map((i) => [i.facilityId, i.value]));

  return (
    <Box sx={{ p: { xs: 2, md: 3 } }} data-testid="fleet-dashboard">
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1}
        sx={{ alignItems: { sm: 'baseline' }, justifyContent: 'space-between', mb: 2 }}
      >
        <Box>
          <Typography variant="h5" component="h1">
            My fleet
          </Typography>
          <Typography variant="body2" color="text.secondary" data-testid="dashboard-period">
            {formatDate(period.from)} – {formatDate(period.to)} · {filteredFacilities?.length ?? 0} ship(s)
          </Typography>
        </Box>
        <Button
          variant="outlined"
          component={Link}
          to="/map"
          startIcon={<MapOutlinedIcon />}
          data-testid="fleet-map-link"
          sx={{ alignSelf: { xs: 'flex-start', sm: 'auto' } }}
        >
          Fleet map
        </Button>
      </Stack>
      <ArchivedMonthsNotice data={data} />

      <Grid container spacing={2}>
        {HEADER.map((h) => (
          <Grid key={h.id} size={{ xs: 12, md: 4 }}>
            <KpiWidget
              title={h.title}
              testId={h.testId}
              loading={loading && !data[h.id]}
              value={numberValue(data[h.id], 'ActualAverage')}
              format={data[h.id]?.fields.ActualAverage?.format ?? 'Tonnes'}
              details={[{ label: 'Lifetime', value: numberValue(data[h.id], 'Lifetime') }]}
              information={data[h.id]?.information}
              exportReportCode={exportCode(h.id)}
            >
              {h.id === C.fleetCo2Reduction ? (
                <Co2ReductionNote
                  values={[numberValue(data[h.id], 'ActualAverage'), numberValue(data[h.id], 'Lifetime')]}
                  testId={`${h.testId}-note`}
                />
              ) : null}
            </KpiWidget>
          </Grid>
        ))}

        <Grid size={12}>
          <OpenEventsCard />
        </Grid>

        <Grid size={{ xs: 12, lg: 6 }}>
          <GaugeCard
            title="Marpol compliance"
            testId="card-marpol"
            loading={loading && !marpol}
            value={numberValue(marpol, 'ActualAverage')}
            gauge={marpolGauge(numberValue(marpol, 'ActualAverage'))}
            information={marpol?.information}
            caption={`Lifetime: ${formatFieldValueText(numberValue(marpol, 'Lifetime'), 'Percent')}`}
            exportReportCode={exportCode(C.fleetMarpolCompliance)}
          >
            <ShipBarChart bars={bars(C.fleetMarpolCompliance)} options={percentBars} testId="chart-marpol" />
          </GaugeCard>
        </Grid>
        <Grid size={{ xs: 12, lg: 6 }}>
          <GaugeCard
            title="SO2/CO2 ratio"
            testId="card-ratio"
            loading={loading && !ratio}
            value={fleetMargin}
            gauge={ratioGauge(fleetMargin)}
            caption={
              fleetMargin === null ? undefined : `${ratioMarginBand(fleetMargin)} · margin to the limit`
            }
            information={ratio?.information}
            exportReportCode={exportCode(C.fleetSo2Co2Ratio)}
          >
            <ShipBarChart
              bars={marginBars(bars(C.fleetSo2Co2Ratio), shipRatios, shipLimits)}
              options={marginBarsOptions}
              testId="chart-ratio"
            />
          </GaugeCard>
        </Grid>
        <Grid size={{ xs: 12, lg: 6 }}>
          <GaugeCard
            title="Operational availability"
            testId="card-availability"
            loading={loading && !availability}
            value={numberValue(availability, 'ActualAverage')}
            gauge={availabilityGauge(numberValue(availability, 'ActualAverage'), 'fleet')}
            information={availability?.information}
            caption={`Lifetime: ${formatFieldValueText(numberValue(availability, 'Lifetime'), 'Percent')}`}
            exportReportCode={exportCode(C.fleetOperationalAvailability)}
          >
            <ShipBarChart
              bars={bars(C.fleetOperationalAvailability)}
              options={availabilityBars}
              testId="chart-availability"
            />
          </GaugeCard>
        </Grid>
        <Grid size={{ xs: 12, lg: 6 }}>
          <GaugeCard
            title="SFOC impact"
            testId="card-sfoc"
            loading={loading && !sfoc}
            value={numberValue(sfoc, 'ActualAverage')}
            gauge={sfocGauge(numberValue(sfoc, 'ActualAverage'))}
            information={sfoc?.information}
            caption={`Industry standard ${SFOC_GAUGE.industryBand[0].toFixed(1)}–${SFOC_GAUGE.industryBand[1].toFixed(1)} %`}
            exportReportCode={exportCode(C.fleetSfocImpact)}
          >
            <ShipBarChart bars={bars(C.fleetSfocImpact)} options={sfocBars} testId="chart-sfoc" />
          </GaugeCard>
        </Grid>
        <Grid size={{ xs: 12, lg: 6 }}>
          {/* A share of compliant hours, as Marpol compliance: the same dial (80 to 100) and bars. */}
          <GaugeCard
            title="Washwater compliance"
            testId="card-washwater"
            loading={loading && !washwater}
            value={numberValue(washwater, 'ActualAverage')}
            gauge={marpolGauge(numberValue(washwater, 'ActualAverage'))}
            information={washwater?.information}
            caption={`Of the hours with discharge · Lifetime: ${formatFieldValueText(numberValue(washwater, 'Lifetime'), 'Percent')}`}
            exportReportCode={exportCode(C.fleetWashwaterCompliance)}
          >
            <ShipBarChart
              bars={bars(C.fleetWashwaterCompliance)}
              options={percentBars}
              testId="chart-washwater"
            />
            {numberValue(washwater, 'ActualAverage') !== null && withoutDischarge.length ? (
              <Typography variant="caption" color="text.secondary" data-testid="washwater-no-discharge">
                No hour with discharge in this period: {withoutDischarge.join(', ')}
              </Typography>
            ) : null}
          </GaugeCard>
        </Grid>

        <Grid size={{ xs: 12, lg: 6 }}>
          <FleetCiiCard shipIds={facilityIds} />
        </Grid>

        {/* The ship cards start a row of their own, whatever the number of large cards above. */}
        <Grid size={12}>
          <Grid container spacing={2}>
            {(filteredFacilities ?? []).map((ship) => (
              <Grid key={ship.id} size={{ xs: 12, sm: 6, lg: 4 }}>
                <Card data-testid="ship-card" data-facility-id={ship.id}>
                  <CardActionArea component={Link} to={`/ship/${ship.id}`}>
                    <CardContent>
                      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mb: 0.5 }}>
                        <ShipImage name={ship.name} image={ship.imageBase64} size={48} />
                        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
                          {ship.name}
                        </Typography>
                      </Stack>
                      <Typography variant="body2" color="text.secondary">
                        IMO {ship.imo ?? NOT_SPECIFIED} · {ship.primaryOrganizationName}
                      </Typography>
                      <Typography variant="body2" color="text.secondary">
                        {ship.scrubberSystemType || NOT_SPECIFIED} · {ship.numberOfScrubbers ?? NOT_SPECIFIED}{' '}
                        scrubber(s)
                      </Typography>
                      <Typography variant="body2">
                        Marpol compliance:{' '}
                        {formatFieldValueText(marpolByShip.get(ship.id) ?? null, 'Percent')}
                      </Typography>
                      <Stack
                        direction="row"
                        spacing={1}
                        sx={{ alignItems: 'center', justifyContent: 'space-between' }}
                      >
                        <Typography variant="caption" color="text.secondary">
                          Latest data: {latestDataLabel(ship.dataTimeStampMax)}
                        </Typography>
                        {/* Inside the card's link: a badge, not a second link. */}
                        <ShipEventBadge facilityId={ship.id} link={false} />
                      </Stack>
                    </CardContent>
                  </CardActionArea>
                </Card>
              </Grid>
            ))}
          </Grid>
        </Grid>
      </Grid>
    </Box>
  );
}

function useSessionInfo() {
  const { profile } = useSession();
  return { profile, isSystemAdmin: canUseReportConfigurator(profile?.roles ?? []) };
}
