import { useState } from 'react';
import { Link as RouterLink, Navigate, useNavigate, useParams } from 'react-router';
import {
  Alert,
  Box,
  Button,
  Chip,
  Link,
  MenuItem,
  Paper,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import LockIcon from '@mui/icons-material/Lock';
import { useQuery } from '@tanstack/react-query';
import { formatDateOnly, formatDateTime, MESSAGES } from '@portal/contracts/rules';
import {
  FINDING_KIND_NAMES,
  OPINION_NAMES,
  type ShipFigures,
  type SuggestedMisstatement,
  type VerificationYear,
} from '@portal/contracts/verification';
import { useSession } from '../../lib/session';
import { FindingDialog } from './FindingDialog';
import { OpinionDialog } from './OpinionDialog';
import { fuelName, number, percent, shortHash, tonnes } from './display';
import { verificationYearQuery } from './verification-api';

/**
 * A verifier's view of an organization's year (docs/decisions/0115-verifier.md): the state (open, locked by the
 * opinion, changed since it), per ship its figures, the reconciliation with the differences above 5 % flagged and
 * the evidence, the misstatements the reconciliation suggests, the findings and the opinions with their chain.
 * The invited verifier records findings and opinions; an administrator of the organization reads it.
 */
export default function VerificationPage() {
  const { profile } = useSession();
  const params = useParams();
  const navigate = useNavigate();
  const organizationId = params.organizationId ?? profile?.organizationId ?? '';
  const invited = profile?.verifierYears ?? [];
  const thisYear = new Date().getUTCFullYear();
  const fallback = invited.length ? Math.max(...invited) : thisYear;
  const year = params.year ? Number(params.year) : null;
  if (year === null || !Number.isInteger(year)) {
    const base = params.organizationId ? `/verification/${params.organizationId}` : '/verification';
    return <Navigate to={`${base}/${fallback}`} replace />;
  }
  return (
    <YearView
      key={`${organizationId}-${year}`}
      organizationId={organizationId}
      year={year}
      onYear={(next) =>
        void navigate(
          params.organizationId ? `/verification/${params.organizationId}/${next}` : `/verification/${next}`,
        )
      }
    />
  );
}

function YearView({
  organizationId,
  year,
  onYear,
}: {
  organizationId: string;
  year: number;
  onYear(year: number): void;
}) {
  const view = useQuery(verificationYearQuery(organizationId, year));
  const [finding, setFinding] = useState<{ suggestion: SuggestedMisstatement | null } | null>(null);
  const [opinion, setOpinion] = useState(false);

  if (view.isError)
    return (
      <Box sx={{ p: { xs: 2, sm: 3 } }}>
        <Alert severity="error">{view.error.message || MESSAGES.DEFAULT_ERROR}</Alert>
      </Box>
    );
  const data = view.data;
  return (
    // One column that never grows past the screen: a wide table scrolls inside its own box.
    <Box
      sx={{ p: { xs: 2, sm: 3 }, display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: 3 }}
      data-testid="verification-page"
    >
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
        <Typography variant="h5" component="h1" sx={{ flex: 1, minWidth: 200 }}>
          Verification {year}
          {data ? ` — ${data.organizationName}` : ''}
        </Typography>
        {data && data.years.length > 1 && (
          <TextField
            select
            size="small"
            label="Reporting year"
            value={year}
            onChange={(event) => onYear(Number(event.target.value))}
            sx={{ minWidth: 140 }}
          >
            {data.years.map((y) => (
              <MenuItem key={y} value={y}>
                {y}
              </MenuItem>
            ))}
          </TextField>
        )}
      </Stack>
      {!data ? (
        <Skeleton variant="rounded" height={240} />
      ) : (
        <>
          <StateNotice data={data} />
          {data.mayRecord && (
            <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
              <Button variant="outlined" onClick={() => setFinding({ suggestion: null })}>
                Record finding
              </Button>
              <Button variant="contained" onClick={() => setOpinion(true)} data-testid="record-opinion">
                Record opinion
              </Button>
            </Stack>
          )}
          <Suggestions
            data={data}
            onRecord={data.mayRecord ? (suggestion) => setFinding({ suggestion }) : undefined}
          />
          {data.ships.map((ship) => (
            <ShipSection
              key={ship.facilityId}
              ship={ship}
              year={data.year}
              threshold={data.thresholdPercent}
            />
          ))}
          {data.ships.length === 0 && (
            <Paper variant="outlined" sx={{ p: 2 }}>
              <Typography variant="body2">The organization has no ships of its own.</Typography>
            </Paper>
          )}
          <Findings data={data} />
          <Opinions data={data} />
          {finding && (
            <FindingDialog
              organizationId={organizationId}
              year={year}
              ships={data.ships}
              suggestion={finding.suggestion}
              onClose={() => setFinding(null)}
            />
          )}
          {opinion && (
            <OpinionDialog
              organizationId={organizationId}
              year={year}
              version={data.version}
              findings={data.findings.length}
              onClose={() => setOpinion(false)}
            />
          )}
        </>
      )}
    </Box>
  );
}

function StateNotice({ data }: { data: VerificationYear }) {
  const last = data.opinions.at(-1);
  const period = `${formatDateOnly(data.from)} to ${formatDateOnly(new Date(Date.parse(data.to) - 1))} (UTC)`;
  if (!last)
    return (
      <Alert severity="info" data-testid="verification-state" data-state="open">
        No opinion on {data.year} yet: the figures of {period} are version {data.version}.
      </Alert>
    );
  if (data.state === 'locked')
    return (
      <Alert
        severity="success"
        icon={<LockIcon fontSize="inherit" />}
        data-testid="verification-state"
        data-state="locked"
      >
        Locked: {OPINION_NAMES[last.opinion].toLowerCase()} on {formatDateTime(last.recordedOn)} by{' '}
        {last.recordedBy}. The figures of {period} are those of the opinion (version {last.version}).
      </Alert>
    );
  return (
    <Alert severity="warning" data-testid="verification-state" data-state="changed">
      Changed since the opinion: the figures differ from version {last.version}, which the opinion of{' '}
      {formatDateTime(last.recordedOn)} covers. This is version {data.version}; it needs an opinion of its
      own.
    </Alert>
  );
}

function Suggestions({
  data,
  onRecord,
}: {
  data: VerificationYear;
  onRecord?: (suggestion: SuggestedMisstatement) => void;
}) {
  if (data.suggestedMisstatements.length === 0) return null;
  return (
    <Box component="section" aria-labelledby="suggestions-heading">
      <Typography variant="h6" component="h2" id="suggestions-heading" sx={{ mb: 1 }}>
        Differences between the flow meters and the bunker delivery notes
      </Typography>
      <Stack spacing={1}>
        {data.suggestedMisstatements.map((s) => (
          <Paper
            key={`${s.facilityId}-${s.fuelType}`}
            variant="outlined"
            sx={{ p: 2, display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap' }}
            data-testid="suggested-misstatement"
            data-above={String(s.aboveThreshold)}
          >
            <Box sx={{ flex: 1, minWidth: 220 }}>
              <Typography variant="body1" sx={{ fontWeight: 600 }}>
                {s.shipName}: {fuelName(s.fuelType)} {percent(s.differencePercent)}
                {s.aboveThreshold && (
                  <Chip size="small" color="error" label="Above 5 %" sx={{ ml: 1 }} component="span" />
                )}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                Flow meters {tonnes(s.reportedValue)} against {tonnes(s.evidenceValue)} by the notes and
                soundings. {s.evidence}.
              </Typography>
            </Box>
            {onRecord && (
              <Button variant="outlined" onClick={() => onRecord(s)}>
                Record as finding
              </Button>
            )}
          </Paper>
        ))}
      </Stack>
    </Box>
  );
}

/** A ship's figures; its links open its fuel records and record book of the year (`?year=`, lib/ledger-year.ts). */
function ShipSection({ ship, year, threshold }: { ship: ShipFigures; year: number; threshold: number }) {
  const headingId = `ship-${ship.facilityId}-heading`;
  return (
    <Box component="section" aria-labelledby={headingId} data-testid="verification-ship">
      <Stack direction="row" spacing={2} sx={{ alignItems: 'baseline', flexWrap: 'wrap', mb: 1 }}>
        <Typography variant="h6" component="h2" id={headingId}>
          {ship.name}
        </Typography>
        {ship.imo && (
          <Typography variant="body2" color="text.secondary">
            IMO {ship.imo}
          </Typography>
        )}
        <Box sx={{ flex: 1 }} />
        <Link component={RouterLink} to={`/facilities/${ship.facilityId}/fuel-records?year=${year}`}>
          Bunker delivery notes
        </Link>
        <Link component={RouterLink} to={`/facilities/${ship.facilityId}/record-book?year=${year}`}>
          Record book
        </Link>
      </Stack>
      <Typography variant="body2" sx={{ mb: 1 }}>
        {number(ship.distanceNm)} nm in {number(ship.hoursUnderWay)} h under way; CO2 {tonnes(ship.co2Tonnes)}
        {ship.fuel.length
          ? `; fuel ${ship.fuel.map((f) => `${fuelName(f.fuelType)} ${tonnes(f.tonnes)}`).join(', ')}`
          : '; no fuel recorded'}
        .
      </Typography>
      {/* On a phone the table scrolls: the region takes the focus, so a keyboard can scroll it too. */}
      <TableContainer
        component={Paper}
        variant="outlined"
        sx={{ mb: 1 }}
        tabIndex={0}
        role="region"
        aria-label={`Reconciliation of ${ship.name}`}
      >
        <Table size="small" aria-label={`Reconciliation of ${ship.name}`}>
          <TableHead>
            <TableRow>
              <TableCell>Fuel</TableCell>
              <TableCell align="right">Flow meters</TableCell>
              <TableCell align="right">ROB at start</TableCell>
              <TableCell align="right">Bunkered</TableCell>
              <TableCell align="right">ROB at end</TableCell>
              <TableCell align="right">Notes and soundings</TableCell>
              <TableCell align="right">Difference</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {ship.reconciliation.rows.length === 0 && (
              <TableRow>
                <TableCell colSpan={7}>No fuel, notes or soundings in the period.</TableCell>
              </TableRow>
            )}
            {ship.reconciliation.rows.map((row) => (
              <TableRow
                key={row.fuelType}
                data-testid="reconciliation-row"
                data-flagged={String(row.flagged)}
              >
                <TableCell>{fuelName(row.fuelType)}</TableCell>
                <TableCell align="right">{tonnes(row.flowMeterTonnes)}</TableCell>
                <TableCell align="right">{tonnes(row.robStartTonnes)}</TableCell>
                <TableCell align="right">{tonnes(row.bunkeredTonnes)}</TableCell>
                <TableCell align="right">{tonnes(row.robEndTonnes)}</TableCell>
                <TableCell align="right">{tonnes(row.bdnTonnes)}</TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  {percent(row.differencePercent)}
                  {row.flagged && (
                    <Chip size="small" color="error" label={`Above ${threshold} %`} sx={{ ml: 1 }} />
                  )}
                  {row.missing.length > 0 && (
                    <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
                      No sounding at the{' '}
                      {row.missing.map((m) => (m === 'robStart' ? 'start' : 'end')).join(' and ')}
                    </Typography>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <Typography variant="subtitle2" component="h3">
        Evidence
      </Typography>
      <Box component="ul" sx={{ m: 0, pl: 3 }} data-testid="evidence">
        {ship.bunkerNotes.map((b) => (
          <li key={b.id}>
            <Typography variant="body2">
              Bunker delivery note {b.bdnNumber ?? '(no number)'}: {fuelName(b.fuelType)}{' '}
              {tonnes(b.massTonnes)}, {formatDateOnly(b.deliveredAt)}
              {b.portName ? `, ${b.portName}` : ''}
            </Typography>
          </li>
        ))}
        {ship.tankSoundings.map((t) => (
          <li key={t.id}>
            <Typography variant="body2">
              Tank sounding: {fuelName(t.fuelType)} {tonnes(t.robTonnes)} on board, {formatDateTime(t.at)}
            </Typography>
          </li>
        ))}
        {ship.bunkerNotes.length + ship.tankSoundings.length === 0 && (
          <li>
            <Typography variant="body2">No bunker delivery notes or soundings in the period.</Typography>
          </li>
        )}
      </Box>
    </Box>
  );
}

function Findings({ data }: { data: VerificationYear }) {
  const shipName = (id: string | null) =>
    id ? (data.ships.find((s) => s.facilityId === id)?.name ?? 'Ship') : 'The organization';
  return (
    <Box component="section" aria-labelledby="findings-heading">
      <Typography variant="h6" component="h2" id="findings-heading" sx={{ mb: 1 }}>
        Findings
      </Typography>
      {data.findings.length === 0 ? (
        <Paper variant="outlined" sx={{ p: 2 }}>
          <Typography variant="body2">No findings recorded for {data.year}.</Typography>
        </Paper>
      ) : (
        <Stack spacing={1}>
          {data.findings.map((f) => (
            <Paper key={f.id} variant="outlined" sx={{ p: 2 }} data-testid="finding">
              <Typography variant="body1" sx={{ fontWeight: 600 }}>
                {FINDING_KIND_NAMES[f.kind]}, {shipName(f.facilityId)}
                {f.aboveThreshold && (
                  <Chip size="small" color="error" label="Above 5 %" sx={{ ml: 1 }} component="span" />
                )}
              </Typography>
              <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                {f.description}
              </Typography>
              <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                {[
                  f.figure && `Figure: ${f.figure}`,
                  f.evidence && `Evidence: ${f.evidence}`,
                  f.kind === 'misstatement' &&
                    `${tonnes(f.reportedValue)} reported, ${tonnes(f.evidenceValue)} by the evidence (${percent(f.differencePercent)})`,
                  `version ${f.version}, ${f.recordedBy}, ${formatDateTime(f.recordedOn)}`,
                ]
                  .filter(Boolean)
                  .join(' · ')}
              </Typography>
            </Paper>
          ))}
        </Stack>
      )}
    </Box>
  );
}

function Opinions({ data }: { data: VerificationYear }) {
  return (
    <Box component="section" aria-labelledby="opinions-heading">
      <Typography variant="h6" component="h2" id="opinions-heading" sx={{ mb: 1 }}>
        Opinions
      </Typography>
      {data.opinions.length === 0 ? (
        <Paper variant="outlined" sx={{ p: 2 }}>
          <Typography variant="body2">No opinion recorded for {data.year}.</Typography>
        </Paper>
      ) : (
        <Stack spacing={1}>
          {[...data.opinions].reverse().map((o) => (
            <Paper key={o.id} variant="outlined" sx={{ p: 2 }} data-testid="opinion">
              <Typography variant="body1" sx={{ fontWeight: 600 }}>
                {o.sequence}. {OPINION_NAMES[o.opinion]} (version {o.version})
              </Typography>
              {o.comment && (
                <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                  {o.comment}
                </Typography>
              )}
              <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                {o.recordedBy}, {formatDateTime(o.recordedOn)} · {o.findingIds.length} finding
                {o.findingIds.length === 1 ? '' : 's'} · SHA-256{' '}
                <Box component="span" title={o.hash} sx={{ fontFamily: 'monospace' }}>
                  {shortHash(o.hash)}
                </Box>{' '}
                after{' '}
                <Box component="span" title={o.previousHash} sx={{ fontFamily: 'monospace' }}>
                  {shortHash(o.previousHash)}
                </Box>
              </Typography>
            </Paper>
          ))}
          <Typography
            variant="body2"
            color={data.chainIntact ? 'text.secondary' : 'error'}
            data-testid="opinion-chain"
          >
            {data.chainIntact
              ? 'The chain of opinions holds: every hash was recomputed.'
              : 'The chain of opinions does not hold: an opinion was changed outside the portal.'}
          </Typography>
        </Stack>
      )}
    </Box>
  );
}
