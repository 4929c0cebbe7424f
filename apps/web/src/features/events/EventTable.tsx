import { Link as RouterLink } from 'react-router';
import {
  Box,
  Link,
  Paper,
  Skeleton,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import type { EventList } from '@portal/contracts/events';
import { eventTitle, formatDateTime } from '@portal/contracts/rules';
import { visuallyHidden } from '../../ui/a11y/visually-hidden';
import { EventChips } from './EventChips';
import { eventDurationText, eventEndText, worstValueText } from './display';

export const EVENT_PAGE_SIZE = 25;

/**
 * The events of a filter, a page at a time (the API orders them: not closed first, reports due first among them,
 * then newest first). Each row names the event by its criterion and its worst value with the measure, the limit
 * (a maximum, or a minimum for pH) and the unit (the event description). On a phone the time and value columns
 * fold into the event's cell.
 */
export function EventTable({
  list,
  loading,
  page,
  onPage,
  showShip,
}: {
  list: EventList | undefined;
  loading: boolean;
  page: number;
  onPage(page: number): void;
  showShip: boolean;
}) {
  const theme = useTheme();
  const compact = useMediaQuery(theme.breakpoints.down('md'));
  const items = list?.items ?? [];
  const columns = compact ? 2 : 6;
  return (
    <Paper>
      <TableContainer>
        <Table size="small" aria-label="Events" data-testid="event-table">
          <TableHead>
            <TableRow>
              <TableCell>{showShip ? 'Event and ship' : 'Event'}</TableCell>
              {!compact && (
                <>
                  <TableCell>Start (UTC)</TableCell>
                  <TableCell>End (UTC)</TableCell>
                  <TableCell>Duration</TableCell>
                  <TableCell>Worst value</TableCell>
                </>
              )}
              <TableCell>
                {compact ? <Box sx={visuallyHidden}>Classification, state and report</Box> : 'Status'}
              </TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {loading && !list
              ? [0, 1, 2].map((i) => (
                  <TableRow key={i}>
                    <TableCell colSpan={columns}>
                      <Skeleton />
                    </TableCell>
                  </TableRow>
                ))
              : items.map((event) => (
                  <TableRow key={event.id} hover data-testid="event-row" data-event-id={event.id}>
                    <TableCell>
                      <Link
                        component={RouterLink}
                        to={`/events/${event.id}`}
                        sx={{ fontWeight: 600, whiteSpace: { md: 'nowrap' } }}
                        data-testid="event-link"
                      >
                        {eventTitle(event)}
                      </Link>
                      {!compact && showShip && (
                        <Typography variant="body2" color="text.secondary">
                          {event.facilityName}
                        </Typography>
                      )}
                      {compact && (
                        <Typography variant="caption" color="text.secondary" component="div">
                          {showShip ? `${event.facilityName} · ` : ''}
                          {formatDateTime(event.start)} UTC
                          {eventDurationText(event) === '–' ? '' : ` · ${eventDurationText(event)}`}
                          {worstValueText(event) === '–' ? null : (
                            <Box component="span" sx={{ display: 'block' }} data-testid="event-value">
                              {worstValueText(event)}
                            </Box>
                          )}
                        </Typography>
                      )}
                    </TableCell>
                    {!compact && (
                      <>
                        <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(event.start)}</TableCell>
                        <TableCell sx={{ whiteSpace: 'nowrap' }}>{eventEndText(event)}</TableCell>
                        <TableCell sx={{ whiteSpace: 'nowrap' }}>{eventDurationText(event)}</TableCell>
                        <TableCell sx={{ whiteSpace: 'nowrap' }} data-testid="event-value">
                          {worstValueText(event)}
                        </TableCell>
                      </>
                    )}
                    <TableCell>
                      <EventChips event={event} />
                    </TableCell>
                  </TableRow>
                ))}
            {list && items.length === 0 && (
              <TableRow>
                <TableCell colSpan={columns}>
                  <Typography color="text.secondary" data-testid="no-events">
                    No events
                  </Typography>
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>
      <TablePagination
        component="div"
        count={list?.total ?? 0}
        page={list && page * EVENT_PAGE_SIZE < Math.max(1, list.total) ? page : 0}
        onPageChange={(_e, next) => onPage(next)}
        rowsPerPage={EVENT_PAGE_SIZE}
        rowsPerPageOptions={[EVENT_PAGE_SIZE]}
      />
    </Paper>
  );
}
