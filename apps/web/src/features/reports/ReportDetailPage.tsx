import { useEffect, useMemo, useState } from 'react';
import { Navigate, useParams } from 'react-router';
import DOMPurify from 'dompurify';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  CardHeader,
  Chip,
  Grid,
  LinearProgress,
  List,
  ListItem,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  Table,
  TableBody,
  TableCell,
  TableRow,
  Typography,
} from '@mui/material';
import CheckCircle from '@mui/icons-material/CheckCircle';
import RadioButtonUnchecked from '@mui/icons-material/RadioButtonUnchecked';
import { useQuery } from '@tanstack/react-query';
import type { ReportField } from '@portal/contracts/reports';
import { NOT_SPECIFIED } from '@portal/contracts/rules';
import { CalculationEditor, type InputOption } from '../calculations';
import { useNotify } from '../../lib/notifications';
import { reportQuery } from './report-api';
import { useUpdateReport } from './update-report-api';
import { measurementFieldsQuery } from './measurement-fields-api';
import { rememberedReport, rememberReport } from './current-report';
import { InformationEditorDialog } from './InformationEditor';

/** The Editor tab: a report's name, target, documentation and information, its fields, and the selected field's properties and calculation. */
export default function ReportDetailPage() {
  const { id } = useParams();
  if (!id) {
    const remembered = rememberedReport();
    return remembered ? (
      <Navigate to={`/report-config/detail/${encodeURIComponent(remembered)}`} replace />
    ) : (
      <Navigate to="/report-config/overview" replace />
    );
  }
  return <ReportDetail key={id} id={id} />;
}

function ReportDetail({ id }: { id: string }) {
  const notify = useNotify();
  const report = useQuery(reportQuery(id));
  const measurementFields = useQuery(measurementFieldsQuery());
  // A report field's calculation reads measurement fields.
  const inputOptions = useMemo<InputOption[]>(
    () =>
      (measurementFields.data ?? []).map((f) => ({ id: f.id, name: f.name, group: 'Measurement fields' })),
    [measurementFields.data],
  );
  const update = useUpdateReport(id);
  const [editing, setEditing] = useState(false);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  useEffect(() => {
    if (report.data) rememberReport(report.data.id);
  }, [report.data]);

  if (report.isPending) return <LinearProgress />;
  if (report.isError || !report.data) return <Alert severity="error">Report not found</Alert>;
  const r = report.data;
  const selected = r.fields.find((f) => f.id === selectedId) ?? r.fields[0];

  return (
    <Grid container spacing={2} data-testid="report-detail">
      <Grid size={12}>
        <Card>
          <CardContent>
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
              <Typography variant="h5" component="h2" data-testid="report-name">
                {r.name}
              </Typography>
              <Chip
                label={r.target}
                size="small"
                color="primary"
                variant="outlined"
                data-testid="report-target"
              />
              <Typography variant="caption" color="text.secondary">
                {r.id}
              </Typography>
            </Box>
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
              {r.documentation ?? NOT_SPECIFIED}
            </Typography>
          </CardContent>
        </Card>
      </Grid>
      <Grid size={12}>
        <Card>
          <CardHeader
            title="Information"
            slotProps={{ title: { variant: 'h6', component: 'h2' } }}
            action={
              <Button onClick={() => setEditing(true)} data-testid="edit-information">
                Edit
              </Button>
            }
          />
          <CardContent sx={{ pt: 0 }}>
            <Box
              data-testid="report-information"
              dangerouslySetInnerHTML={{ __html: DOMPurify.sanitize(r.information ?? '') }}
            />
          </CardContent>
        </Card>
        <InformationEditorDialog
          open={editing}
          html={r.information ?? ''}
          saving={update.isPending}
          onCancel={() => setEditing(false)}
          onSave={(html) =>
            update.mutate(html, {
              onSuccess: () => {
                setEditing(false);
                notify.success();
              },
              onError: (error) => notify.error(undefined, error),
            })
          }
        />
      </Grid>
      <Grid size={{ xs: 12, md: 4 }}>
        <Card>
          <CardHeader title="Report fields" slotProps={{ title: { variant: 'h6', component: 'h2' } }} />
          <List dense data-testid="report-fields">
            {r.fields.map((f) => (
              <ListItem key={f.id} disablePadding>
                <ListItemButton
                  selected={f.id === selected?.id}
                  aria-current={f.id === selected?.id ? 'true' : undefined}
                  onClick={() => setSelectedId(f.id)}
                  data-testid="report-field"
                >
                  <ListItemIcon sx={{ minWidth: 32 }}>
                    {f.isApproved ? (
                      <CheckCircle color="success" fontSize="small" titleAccess="Approved" />
                    ) : (
                      <RadioButtonUnchecked fontSize="small" titleAccess="Not approved" />
                    )}
                  </ListItemIcon>
                  <ListItemText primary={f.name} secondary={f.interfaceType} />
                </ListItemButton>
              </ListItem>
            ))}
          </List>
        </Card>
      </Grid>
      <Grid size={{ xs: 12, md: 8 }}>{selected ? <FieldProperties field={selected} /> : null}</Grid>
      {selected ? (
        <Grid
          size={12}
          data-testid="field-calculation"
          role="region"
          aria-label={`Calculation of ${selected.name}`}
        >
          <CalculationEditor
            key={selected.id}
            kind="report-field"
            reportId={r.id}
            reportFieldId={selected.id}
            inputOptions={inputOptions}
          />
        </Grid>
      ) : null}
    </Grid>
  );
}

const yesNo = (v: boolean) => (v ? 'Yes' : 'No');

function FieldProperties({ field }: { field: ReportField }) {
  const rows: [string, string][] = [
    ['As lifetime', yesNo(field.asLifetime)],
    ['As series', yesNo(field.asSeries)],
    ['By ship', yesNo(field.byFacility)],
    ['Ship aggregate type', field.facilityAggregateType],
    ['Time aggregate type', field.timeAggregateType],
    ['Format', field.format ?? NOT_SPECIFIED],
    ['Format note', field.formatNote ?? NOT_SPECIFIED],
    ['Shown as', field.interfaceType ?? NOT_SPECIFIED],
    ['Unit', field.unit ?? NOT_SPECIFIED],
    ['Note', field.note ?? NOT_SPECIFIED],
    ['Documentation', field.documentation ?? NOT_SPECIFIED],
  ];
  return (
    <Card data-testid="field-properties">
      <CardHeader
        title={field.name}
        subheader={field.isApproved ? 'Approved' : 'Not approved'}
        slotProps={{ title: { variant: 'h6', component: 'h2' } }}
      />
      <Table size="small">
        <TableBody>
          {rows.map(([label, value]) => (
            <TableRow key={label}>
              <TableCell sx={{ width: 200, color: 'text.secondary' }}>{label}</TableCell>
              <TableCell>{value}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Card>
  );
}
