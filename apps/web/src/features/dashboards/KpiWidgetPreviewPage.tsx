import { useMemo } from 'react';
import { Box, Card, CardContent, Grid, Typography } from '@mui/material';
import { buildUptimeMatrix, capMarginChartValue, customPeriod, SFOC_GAUGE } from '@portal/contracts/rules';
import { KpiWidget } from '../../ui/kpi/KpiWidget';
import { GaugeCard } from '../../ui/kpi/GaugeCard';
import { ShipBarChart } from '../../ui/kpi/ShipBarChart';
import { ComplianceChart } from '../../ui/kpi/ComplianceChart';
import RatioTimeChart from '../../ui/kpi/RatioTimeChart';
import UptimeMatrixChart from '../../ui/kpi/UptimeMatrixChart';
import {
  availabilityGauge,
  MARGIN_AXIS_NAME,
  marginBars,
  marpolGauge,
  ratioGauge,
  sfocGauge,
} from '../../ui/kpi/options';

// Hard-coded sample numbers: a design gallery with no behaviour.
const SHIPS = ['Aurora', 'Borealis', 'Cassiopeia', 'Draco', 'Eridanus', 'Fornax'].map((name, i) => ({
  facilityId: `sample-${i}`,
  name,
}));
const PERIOD = customPeriod('2024-03-01', '2024-03-07');
const HOURS = Array.from({ length: 7 * 24 }, (_, i) =>
  new Date(PERIOD.from.getTime() + i * 3_600_000).toISOString(),
);

/** /KPIWidgetPreview: the real widgets with sample numbers. */
export default function KpiWidgetPreviewPage() {
  const ratioSeries = useMemo(
    () => HOURS.map((timestamp, i) => ({ timestamp, value: i % 40 === 17 ? 31.2 : 3 + ((i * 7) % 13) / 2 })),
    [],
  );
  const limits = useMemo(() => HOURS.map((timestamp, i) => ({ timestamp, value: i < 72 ? 4.3 : 21.7 })), []);
  const matrix = useMemo(
    () =>
      buildUptimeMatrix(
        HOURS.map((timestamp, i) => ({
          timestamp,
          value: i % 24 < 2 ? null : i % 31 === 0 ? 87.5 : i % 29 === 0 ? 112 : 100,
        })),
        PERIOD,
        'hourly',
      ),
    [],
  );
  const compliance = useMemo(
    () => HOURS.map((complianceDate, i) => ({ complianceDate, value: i % 23 === 0 ? 60 : 100 })),
    [],
  );
  const margins = new Map(SHIPS.map((s, i) => [s.facilityId, [72, 35, 18, 6, -4, 41][i]!]));

  return (
    <Box sx={{ p: 3 }} data-testid="kpi-preview">
      <Typography variant="h5" component="h1" gutterBottom>
        KPI widget preview
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }} data-testid="sulfur-baseline">
        Extra removal of sulfur is counted against the baseline the area requires: 0.1 % sulfur inside
        emission control areas and 0.5 % sulfur outside.
      </Typography>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 4 }}>
          <KpiWidget
            title="Extra removal of sulfur"
            testId="preview-sulfur"
            value={0.734}
            format="Tonnes"
            details={[{ label: 'Lifetime', value: 48.2 }]}
          />
        </Grid>
        <Grid size={{ xs: 12, md: 4 }}>
          <KpiWidget
            title="CO2 reduction"
            testId="preview-co2"
            value={312.4}
            format="Tonnes"
            details={[{ label: 'Lifetime', value: 9840 }]}
          />
        </Grid>
        <Grid size={{ xs: 12, md: 4 }}>
          <KpiWidget
            title="Total CO2 emission"
            testId="preview-emission"
            value={154_300}
            format="Tonnes"
            details={[{ label: 'Lifetime', value: 1_204_000 }]}
          />
        </Grid>
        <Grid size={{ xs: 12, lg: 6 }}>
          <GaugeCard
            title="Marpol compliance"
            testId="preview-marpol"
            value={99.97}
            gauge={marpolGauge(99.97)}
          >
            <ShipBarChart
              bars={SHIPS.map((s, i) => ({ ...s, value: [100, 99.2, 97.5, 92.1, 100, 88.4][i]! }))}
              options={{ unit: '%', min: 0, max: 100 }}
              testId="preview-marpol-chart"
            />
          </GaugeCard>
        </Grid>
        <Grid size={{ xs: 12, lg: 6 }}>
          <GaugeCard
            title="SO2/CO2 ratio"
            testId="preview-ratio"
            value={27.5}
            gauge={ratioGauge(27.5)}
            caption="Optimal"
          >
            <ShipBarChart
              bars={marginBars(
                SHIPS.map((s) => ({ ...s, value: margins.get(s.facilityId) ?? null })),
                new Map(SHIPS.map((s, i) => [s.facilityId, [1.2, 2.8, 3.5, 4.0, 22.6, 2.5][i]!])),
                new Map(SHIPS.map((s, i) => [s.facilityId, [4.3, 4.3, 4.3, 4.3, 21.7, 4.3][i]!])),
              )}
              options={{
                unit: '%',
                format: 'Percent',
                min: -30,
                max: 100,
                cap: capMarginChartValue,
                axisName: MARGIN_AXIS_NAME,
              }}
              testId="preview-ratio-chart"
            />
          </GaugeCard>
        </Grid>
        <Grid size={{ xs: 12, lg: 6 }}>
          <GaugeCard
            title="Operational availability"
            testId="preview-availability"
            value={98.6}
            gauge={availabilityGauge(98.6, 'fleet')}
          />
        </Grid>
        <Grid size={{ xs: 12, lg: 6 }}>
          <GaugeCard
            title="SFOC impact"
            testId="preview-sfoc"
            value={2.2}
            gauge={sfocGauge(2.2)}
            caption="Industry standard 2.0–2.5 %"
          >
            <ShipBarChart
              bars={SHIPS.map((s, i) => ({ ...s, value: [1.8, 2.2, 2.6, 3.1, 1.4, 2.0][i]! }))}
              options={{ unit: '%', min: 0, axisStep: SFOC_GAUGE.chartAxisStep }}
              testId="preview-sfoc-chart"
            />
          </GaugeCard>
        </Grid>
        <Grid size={{ xs: 12, md: 4 }}>
          <KpiWidget
            title="Marpol compliance"
            testId="preview-ship-marpol"
            value={98.1}
            format="Percent"
            details={[
              { label: 'Lifetime', value: 97.4 },
              { label: 'Fleet', value: 96.2 },
            ]}
          >
            <ComplianceChart values={compliance} days={7} />
          </KpiWidget>
        </Grid>
        <Grid size={{ xs: 12, md: 8 }}>
          <Card>
            <CardContent>
              <Typography variant="h6" component="h2">
                SO2/CO2 ratio
              </Typography>
              <RatioTimeChart values={ratioSeries} limits={limits} />
            </CardContent>
          </Card>
        </Grid>
        <Grid size={12}>
          <Card>
            <CardContent>
              <Typography variant="h6" component="h2">
                Operational availability
              </Typography>
              <UptimeMatrixChart matrix={matrix} />
            </CardContent>
          </Card>
        </Grid>
      </Grid>
    </Box>
  );
}
