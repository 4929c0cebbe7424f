import { useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import {
  Box,
  Button,
  Chip,
  IconButton,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  Tooltip,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import SettingsIcon from '@mui/icons-material/Settings';
import EventNoteIcon from '@mui/icons-material/EventNote';
import { canConfigureShips, formatDate, MESSAGES, SHIP_LIST_PAGE_SIZE } from '@portal/contracts/rules';
import { useFleet } from '../../lib/fleet-context';
import { useSession } from '../../lib/session';
import { executionStatusQuery } from '../../lib/queries/execution-status';
import { ShipImage } from '../../ui/ship/ShipImage';
import { HealthBadge, useDataHealthSummaries } from '../data-health';
import { ShipEventBadge } from '../events';
import { NewShipDialog } from './NewShipDialog';
import { useOrganizationChoices } from './organizations-api';
import { coverageText, shipStatus } from './ship-status';

/** /facilities/overview: the ships, 15 a page, with their data span, coverage and processing status. */
export default function ShipListPage() {
  const { profile } = useSession();
  const { facilities } = useFleet();
  const navigate = useNavigate();
  const theme = useTheme();
  // On a phone the data columns fold into the ship cell and the actions become icons.
  const compact = useMediaQuery(theme.breakpoints.down('sm'));
  const admin = canConfigureShips(profile?.roles ?? []);
  const [page, setPage] = useState(0);
  const [newShipOpen, setNewShipOpen] = useState(false);
  const { data: status } = useQuery(executionStatusQuery());
  const { data: health } = useDataHealthSummaries();
  const organizations = useOrganizationChoices(facilities, admin && newShipOpen);
  const ships = facilities ?? [];
  const lastPage = Math.max(0, Math.ceil(ships.length / SHIP_LIST_PAGE_SIZE) - 1);
  const current = Math.min(page, lastPage);
  const rows = ships.slice(current * SHIP_LIST_PAGE_SIZE, (current + 1) * SHIP_LIST_PAGE_SIZE);

  return (
    <Box>
      {admin && (
        <Stack direction="row" sx={{ justifyContent: 'flex-end', mb: 2 }}>
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setNewShipOpen(true)}>
            New ship
          </Button>
        </Stack>
      )}
      <Paper>
        <TableContainer>
          <Table size="small" aria-label="Ships">
            <TableHead>
              <TableRow>
                <TableCell>Ship</TableCell>
                {!compact && (
                  <>
                    <TableCell>Earliest data</TableCell>
                    <TableCell>Latest data</TableCell>
                    <TableCell align="right">Data coverage</TableCell>
                  </>
                )}
                <TableCell>Status</TableCell>
                <TableCell align="right">
                  <Box
                    component="span"
                    sx={{
                      position: 'absolute',
                      width: '1px',
                      height: '1px',
                      overflow: 'hidden',
                      clip: 'rect(0 0 0 0)',
                    }}
                  >
                    Actions
                  </Box>
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((ship) => {
                const state = shipStatus(ship, status?.items ?? [], status?.failed ?? []);
                const badge = (
                  <HealthBadge
                    summary={health?.find((h) => h.facilityId === ship.id)}
                    to={admin ? `/facilities/${ship.id}/config/data-health` : undefined}
                    compact={compact}
                  />
                );
                return (
                  <TableRow key={ship.id} hover data-testid="ship-row">
                    <TableCell>
                      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
                        <ShipImage name={ship.name} image={ship.imageBase64} size={compact ? 32 : 40} />
                        <Box sx={{ minWidth: 0 }}>
                          <Typography variant="body2" sx={{ fontWeight: 600 }}>
                            {ship.name}
                          </Typography>
                          <Typography variant="caption" color="text.secondary" component="div">
                            IMO {ship.imo || 'Not specified'}
                          </Typography>
                          <ShipEventBadge facilityId={ship.id} />
                          {compact && (
                            <Typography variant="caption" color="text.secondary" component="div">
                              {ship.dataTimeStampMax
                                ? `${formatDate(ship.dataTimeStampMin)} – ${formatDate(ship.dataTimeStampMax)} · ${coverageText(ship.dataCoverage)}`
                                : MESSAGES.NO_DATA}
                            </Typography>
                          )}
                        </Box>
                      </Stack>
                    </TableCell>
                    {!compact && (
                      <>
                        <TableCell sx={{ whiteSpace: 'nowrap' }}>
                          {formatDate(ship.dataTimeStampMin)}
                        </TableCell>
                        <TableCell sx={{ whiteSpace: 'nowrap' }}>
                          {formatDate(ship.dataTimeStampMax)}
                        </TableCell>
                        <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                          {coverageText(ship.dataCoverage)}
                        </TableCell>
                      </>
                    )}
                    <TableCell>
                      <Stack spacing={0.5}>
                        {/* The execution status alone (tests and screen readers read it apart from the badge). */}
                        <Stack data-testid="ship-status">
                          {state.kind === 'processing' ? (
                            <Stack>
                              <Chip
                                size="small"
                                color="warning"
                                label={state.label}
                                sx={{ alignSelf: 'flex-start' }}
                              />
                              <Typography variant="caption" color="text.secondary">
                                since {state.since}
                              </Typography>
                            </Stack>
                          ) : state.kind === 'failed' ? (
                            <Stack sx={{ maxWidth: 320 }}>
                              <Chip
                                size="small"
                                color="error"
                                label={state.label}
                                sx={{ alignSelf: 'flex-start' }}
                              />
                              <Typography variant="caption" color="text.secondary">
                                {state.at}
                              </Typography>
                              <Typography
                                variant="caption"
                                color="error"
                                sx={{ overflowWrap: 'anywhere' }}
                                data-testid="ship-status-error"
                              >
                                {state.error}
                              </Typography>
                            </Stack>
                          ) : (
                            <Chip
                              size="small"
                              variant="outlined"
                              color={state.kind === 'ready' ? 'success' : 'default'}
                              label={state.label}
                              sx={{ alignSelf: 'flex-start' }}
                            />
                          )}
                        </Stack>
                        {badge}
                      </Stack>
                    </TableCell>
                    <TableCell align="right">
                      {compact ? (
                        // Stacked: three icons side by side would push Configure out of a phone's width.
                        <Stack direction={admin ? 'column' : 'row'} sx={{ alignItems: 'flex-end' }}>
                          <Tooltip title="Events">
                            <IconButton
                              size="small"
                              aria-label="Events"
                              component={RouterLink}
                              to={`/facilities/${ship.id}/events`}
                            >
                              <EventNoteIcon fontSize="small" />
                            </IconButton>
                          </Tooltip>
                          <Tooltip title="Upload data">
                            <IconButton
                              size="small"
                              aria-label="Upload data"
                              component={RouterLink}
                              to={`/facilities/${ship.id}/files`}
                            >
                              <UploadFileIcon fontSize="small" />
                            </IconButton>
                          </Tooltip>
                          {admin && (
                            <Tooltip title="Configure">
                              <IconButton
                                size="small"
                                aria-label="Configure"
                                component={RouterLink}
                                to={`/facilities/${ship.id}/config`}
                              >
                                <SettingsIcon fontSize="small" />
                              </IconButton>
                            </Tooltip>
                          )}
                        </Stack>
                      ) : (
                        <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
                          <Button
                            size="small"
                            startIcon={<EventNoteIcon />}
                            component={RouterLink}
                            to={`/facilities/${ship.id}/events`}
                          >
                            Events
                          </Button>
                          <Button
                            size="small"
                            startIcon={<UploadFileIcon />}
                            component={RouterLink}
                            to={`/facilities/${ship.id}/files`}
                          >
                            Upload data
                          </Button>
                          {admin && (
                            <Button
                              size="small"
                              startIcon={<SettingsIcon />}
                              component={RouterLink}
                              to={`/facilities/${ship.id}/config`}
                            >
                              Configure
                            </Button>
                          )}
                        </Stack>
                      )}
                    </TableCell>
                  </TableRow>
                );
              })}
              {ships.length === 0 && (
                <TableRow>
                  <TableCell colSpan={compact ? 3 : 6}>
                    <Typography color="text.secondary">No ships</Typography>
                  </TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        </TableContainer>
        <TablePagination
          component="div"
          count={ships.length}
          page={current}
          onPageChange={(_e, next) => setPage(next)}
          rowsPerPage={SHIP_LIST_PAGE_SIZE}
          rowsPerPageOptions={[SHIP_LIST_PAGE_SIZE]}
        />
      </Paper>
      {newShipOpen && (
        <NewShipDialog
          organizations={organizations}
          onClose={() => setNewShipOpen(false)}
          onCreated={(id) => {
            setNewShipOpen(false);
            void navigate(`/facilities/${id}/config/info`);
          }}
        />
      )}
    </Box>
  );
}
