import { useMemo, type ReactNode } from 'react';
import { Link as RouterLink, useParams, useSearchParams } from 'react-router';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  CardHeader,
  Chip,
  Grid,
  Link,
  Rating,
  Skeleton,
  Stack,
  Typography,
} from '@mui/material';
import { versionLabel } from '@portal/contracts/rules';
import type { OutputType } from '@portal/contracts/calculations';
import { CalculationEditor, type InputOption } from '../calculations';
import { useFacilityMeasurementFields, useMeasurementField } from './measurement-fields-api';
import { StatusChip } from './StatusChip';

const MEASUREMENT_FIELDS_GROUP = 'Measurement fields';

function Property({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box>
      <Typography variant="caption" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="body2" component="div">
        {children}
      </Typography>
    </Box>
  );
}

/** /facilities/{id}/config/detail?id={fieldId}: properties, configured channels and the calculation editor. */
export default function MeasurementFieldDetailPage() {
  const { facilityId = '' } = useParams();
  const [params] = useSearchParams();
  const fieldId = params.get('id') ?? '';
  const field = useMeasurementField(fieldId, facilityId);
  const catalogue = useFacilityMeasurementFields(facilityId);

  const inputOptions = useMemo<InputOption[]>(() => {
    const channels = (field.data?.dataSources ?? []).flatMap((s) =>
      s.channels.map((c) => ({ id: c.id, name: c.name, group: s.name })),
    );
    const fields = (catalogue.data ?? [])
      .filter((f) => f.id !== fieldId)
      .map((f) => ({ id: f.id, name: f.name, group: MEASUREMENT_FIELDS_GROUP }));
    return [...channels, ...fields];
  }, [field.data, catalogue.data, fieldId]);

  if (!fieldId) return <Alert severity="info">Choose a measurement field in the list.</Alert>;
  if (field.isError) return <Alert severity="error">Something went wrong! Please try again</Alert>;
  if (field.isPending) return <Skeleton variant="rounded" height={400} sx={{ m: 2 }} />;
  const f = field.data;
  const configured = f.dataSources
    .map((s) => ({ ...s, channels: s.channels.filter((c) => c.usedByField) }))
    .filter((s) => s.channels.length > 0);

  return (
    <Box sx={{ p: 2 }}>
      {/* Wraps on a phone: the name and its status chip otherwise push the page wider than the screen. */}
      <Stack direction="row" useFlexGap sx={{ mb: 2, alignItems: 'center', flexWrap: 'wrap', gap: 2 }}>
        <Button component={RouterLink} to={`/facilities/${facilityId}/config/list`} size="small">
          Measurement fields
        </Button>
        <Typography variant="h5" component="h2" sx={{ overflowWrap: 'anywhere', minWidth: 0 }}>
          {f.name}
        </Typography>
        <StatusChip status={f.status} />
      </Stack>
      <Grid container spacing={2} sx={{ mb: 2 }}>
        <Grid size={{ xs: 12, md: 6 }}>
          <Card variant="outlined" sx={{ height: '100%' }}>
            <CardHeader title="Properties" slotProps={{ title: { variant: 'subtitle1' } }} />
            <CardContent>
              <Grid container spacing={2}>
                <Grid size={6}>
                  <Property label="Data type">{f.dataType}</Property>
                </Grid>
                <Grid size={6}>
                  <Property label="Unit">{f.unit || '—'}</Property>
                </Grid>
                <Grid size={6}>
                  <Property label="Version">
                    {f.version !== null && f.revision !== null ? versionLabel(f.version, f.revision) : '—'}
                  </Property>
                </Grid>
                <Grid size={6}>
                  <Property label="Required sample interval">{f.requiredSampleIntervalInSeconds} s</Property>
                </Grid>
                <Grid size={6}>
                  <Property label="Calculations">
                    {f.calculations} ({f.approvedCalculations} approved)
                  </Property>
                </Grid>
                <Grid size={6}>
                  <Property label="Calculation rating">
                    <Rating size="small" readOnly value={f.activeCalculationRating} />
                  </Property>
                </Grid>
                <Grid size={12}>
                  <Property label="Documentation">{f.documentation || '—'}</Property>
                </Grid>
                {f.activeCalculationComment && (
                  <Grid size={12}>
                    <Property label="Comment">{f.activeCalculationComment}</Property>
                  </Grid>
                )}
              </Grid>
            </CardContent>
          </Card>
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <Card variant="outlined" sx={{ height: '100%' }}>
            <CardHeader title="Configured channels" slotProps={{ title: { variant: 'subtitle1' } }} />
            <CardContent>
              {configured.length === 0 && (
                <Typography variant="body2" color="text.secondary">
                  No channel of this ship is an input of the field&apos;s calculations.
                </Typography>
              )}
              <Stack spacing={2}>
                {configured.map((s) => (
                  <Box key={s.id}>
                    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                      <Typography variant="subtitle2" component="h3">
                        {s.name}
                      </Typography>
                      {s.isPrimary && <Chip size="small" label="Primary" />}
                      <Box sx={{ flexGrow: 1 }} />
                      <Link
                        component={RouterLink}
                        to={`/facilities/${facilityId}/config/channels`}
                        variant="body2"
                      >
                        Edit
                      </Link>
                    </Stack>
                    {s.channels.map((c) => (
                      <Typography key={c.id} variant="body2" color="text.secondary">
                        {c.name} ← {c.source} ({c.dataType}
                        {c.unit ? `, ${c.unit}` : ''})
                      </Typography>
                    ))}
                  </Box>
                ))}
              </Stack>
            </CardContent>
          </Card>
        </Grid>
      </Grid>
      <CalculationEditor
        key={`${facilityId}:${f.id}`}
        kind="measurement-field"
        facilityId={facilityId}
        measurementFieldId={f.id}
        inputOptions={inputOptions}
        defaultOutputType={f.dataType as OutputType}
      />
    </Box>
  );
}
