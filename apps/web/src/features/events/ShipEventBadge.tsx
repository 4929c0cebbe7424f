import { Link as RouterLink } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Chip } from '@mui/material';
import { shipEventBadge } from './display';
import { openEventsQuery } from './events-api';

/** A ship's open events at a glance (reports due, else malfunctions, else events), linking to its events. */
export function ShipEventBadge({ facilityId, link = true }: { facilityId: string; link?: boolean }) {
  const open = useQuery(openEventsQuery());
  const badge = shipEventBadge(open.data?.openByFacility[facilityId]);
  if (!badge) return null;
  const common = {
    size: 'small' as const,
    label: badge.label,
    color: badge.colour,
    variant: badge.variant,
    'data-testid': 'ship-event-badge',
    sx: { alignSelf: 'flex-start' },
  };
  return link ? (
    <Chip {...common} clickable component={RouterLink} to={`/facilities/${facilityId}/events`} />
  ) : (
    <Chip {...common} />
  );
}
