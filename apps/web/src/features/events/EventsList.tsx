import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Alert, Typography } from '@mui/material';
import { useFleet } from '../../lib/fleet-context';
import { EventFilters } from './EventFilters';
import { EVENT_PAGE_SIZE, EventTable } from './EventTable';
import { eventFilterSearch, eventListRequest, parseEventFilter, type EventFilter } from './display';
import { eventsQuery } from './events-api';

/**
 * Filters and table of events, the filter kept in the address (a link can open a filtered list). On a ship's page
 * the ship is fixed and not offered as a filter.
 */
export function EventsList({ facilityId }: { facilityId?: string }) {
  const [search, setSearch] = useSearchParams();
  const { period, filteredFacilities } = useFleet();
  const filter = useMemo(() => parseEventFilter(search, facilityId), [search, facilityId]);
  const [page, setPage] = useState(0);
  const request = useMemo(
    () => eventListRequest(filter, period, page, EVENT_PAGE_SIZE),
    [filter, period, page],
  );
  const list = useQuery(eventsQuery(request));
  const change = (next: EventFilter) => {
    setPage(0);
    setSearch(eventFilterSearch(next, facilityId), { replace: true });
  };
  return (
    <>
      <EventFilters
        filter={filter}
        onChange={change}
        period={period}
        ships={facilityId ? undefined : (filteredFacilities ?? [])}
      />
      {list.isError ? (
        <Alert severity="error">The events could not be loaded.</Alert>
      ) : (
        <>
          {list.data && (
            <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }} data-testid="event-count">
              {list.data.totalCapped
                ? `More than ${list.data.total.toLocaleString('en-US')}`
                : list.data.total}{' '}
              event(s) · {list.data.reportsDue} report(s) to the flag State and port State due
            </Typography>
          )}
          <EventTable
            list={list.data}
            loading={list.isPending}
            page={page}
            onPage={setPage}
            showShip={!facilityId}
          />
        </>
      )}
    </>
  );
}
