import { useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Box,
  Button,
  Chip,
  LinearProgress,
  Paper,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DownloadIcon from '@mui/icons-material/Download';
import { INSPECTION_PACK_STATE_NAMES, type InspectionPack } from '@portal/contracts/inspection-packs';
import { useNotify } from '../../lib/notifications';
import { ShipTabs } from '../events';
import { BuildPackDialog } from './BuildPackDialog';
import { ScheduleCard } from './ScheduleCard';
import { packContentText, packPeriodText, packRequestText, packStateText } from './display';
import {
  downloadInspectionPack,
  failureMessage,
  inspectionPacksQuery,
  isBuilding,
} from './inspection-packs-api';

const STATE_COLORS = { queued: 'default', building: 'info', ready: 'success', failed: 'error' } as const;

function PackState({ pack }: { pack: InspectionPack }) {
  return (
    <Stack spacing={0.5} sx={{ minWidth: 160 }}>
      <Chip
        size="small"
        color={STATE_COLORS[pack.state]}
        label={INSPECTION_PACK_STATE_NAMES[pack.state]}
        sx={{ alignSelf: 'flex-start' }}
      />
      {isBuilding(pack) && (
        <LinearProgress
          variant={pack.state === 'building' ? 'determinate' : 'indeterminate'}
          value={Math.round(pack.progress * 100)}
          aria-label={`Progress of the pack of ${packPeriodText(pack)}`}
        />
      )}
      {packStateText(pack) !== INSPECTION_PACK_STATE_NAMES[pack.state] && (
        <Typography variant="caption" color={pack.state === 'failed' ? 'error' : 'text.secondary'}>
          {packStateText(pack)}
        </Typography>
      )}
    </Stack>
  );
}

function DownloadButton({ pack }: { pack: InspectionPack }) {
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      await downloadInspectionPack(pack);
    } catch (error) {
      notify.error(failureMessage(error), error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      size="small"
      variant="outlined"
      startIcon={<DownloadIcon />}
      disabled={pack.state !== 'ready' || busy}
      onClick={() => void run()}
      aria-description={`The inspection pack of ${packPeriodText(pack)}`}
    >
      Download
    </Button>
  );
}

/**
 * /facilities/{id}/inspection-packs: the ship's inspection packs, newest first, with the state and progress of each
 * build (polled while one is on its way) and Download once ready; "Build inspection pack" asks for a period; the
 * organization's monthly pack beside. An e-mailed link (?pack=) picks its pack out.
 */
export default function InspectionPacksPage() {
  const { facilityId = '' } = useParams();
  const [search] = useSearchParams();
  const highlighted = search.get('pack');
  const packs = useQuery(inspectionPacksQuery(facilityId));
  const [building, setBuilding] = useState(false);

  return (
    <Box data-testid="inspection-packs-page">
      <ShipTabs facilityId={facilityId} current="inspection-packs" />
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1}
        useFlexGap
        sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' }, mb: 2 }}
      >
        <Box>
          <Typography variant="h6" component="h2">
            Inspection packs
          </Typography>
          <Typography variant="body2" color="text.secondary">
            One download for a port State officer or a flag surveyor: the PDF of a period and the original
            logger files with their SHA-256.
          </Typography>
        </Box>
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setBuilding(true)}>
          Build inspection pack
        </Button>
      </Stack>
      <Stack spacing={2}>
        {packs.isError ? (
          <Alert severity="error">The inspection packs could not be loaded.</Alert>
        ) : (
          <Paper>
            <TableContainer tabIndex={0} role="region" aria-label="Inspection packs">
              <Table size="small" aria-label="Inspection packs" data-testid="inspection-packs-table">
                <TableHead>
                  <TableRow>
                    <TableCell>Period</TableCell>
                    <TableCell>Requested</TableCell>
                    <TableCell>State</TableCell>
                    <TableCell>Contents</TableCell>
                    <TableCell align="right">Download</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {packs.isPending ? (
                    <TableRow>
                      <TableCell colSpan={5}>
                        <Skeleton />
                      </TableCell>
                    </TableRow>
                  ) : packs.data.length === 0 ? (
                    <TableRow>
                      <TableCell colSpan={5}>
                        <Typography variant="body2" color="text.secondary">
                          No inspection pack of this ship yet.
                        </Typography>
                      </TableCell>
                    </TableRow>
                  ) : (
                    packs.data.map((pack) => (
                      <TableRow
                        key={pack.id}
                        selected={pack.id === highlighted}
                        data-testid={`inspection-pack-${pack.id}`}
                      >
                        <TableCell>
                          {packPeriodText(pack)}
                          {pack.scheduled && (
                            <Chip size="small" variant="outlined" label="Monthly" sx={{ ml: 1 }} />
                          )}
                        </TableCell>
                        <TableCell>{packRequestText(pack)}</TableCell>
                        <TableCell>
                          <PackState pack={pack} />
                        </TableCell>
                        <TableCell>
                          {packContentText(pack)}
                          {pack.pdfSha256 && (
                            <Tooltip title={`SHA-256 of the PDF: ${pack.pdfSha256}`}>
                              <Typography
                                variant="caption"
                                color="text.secondary"
                                sx={{ display: 'block', fontFamily: 'monospace' }}
                              >
                                PDF {pack.pdfSha256.slice(0, 12)}…
                              </Typography>
                            </Tooltip>
                          )}
                        </TableCell>
                        <TableCell align="right">
                          <DownloadButton pack={pack} />
                        </TableCell>
                      </TableRow>
                    ))
                  )}
                </TableBody>
              </Table>
            </TableContainer>
          </Paper>
        )}
        <ScheduleCard facilityId={facilityId} />
      </Stack>
      {building && <BuildPackDialog facilityId={facilityId} onClose={() => setBuilding(false)} />}
    </Box>
  );
}
