import { Link as RouterLink, Outlet, useLocation, useParams } from 'react-router';
import { Box, IconButton, Skeleton, Stack, Tooltip, Typography } from '@mui/material';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { MESSAGES } from '@portal/contracts/rules';
import { useFleet } from '../../lib/fleet-context';

/**
 * /facilities: titled "Facility overview" on the overview; on a ship's pages (files, configuration) a back
 * button to /facilities and the ship's name. A ship the caller does not see (or that does not exist) is
 * "Ship not found" once the ship list is known, and its pages are not opened (no calls that can only fail).
 */
export default function FacilitiesLayout() {
  const { pathname } = useLocation();
  const { facilityId } = useParams();
  const { facilities } = useFleet();
  const overview = pathname.replace(/\/+$/, '').split('/').pop() === 'overview';
  const ship = facilities?.find((f) => f.id === facilityId);
  const unknown = !overview && Boolean(facilityId) && Boolean(facilities) && !ship;
  return (
    <Box sx={{ p: { xs: 2, md: 3 } }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 2 }}>
        {!overview && (
          <Tooltip title="Back to the ship list">
            <IconButton component={RouterLink} to="/facilities" aria-label="Back to the ship list">
              <ArrowBackIcon />
            </IconButton>
          </Tooltip>
        )}
        <Typography variant="h5" component="h1">
          {overview ? (
            'Facility overview'
          ) : ship ? (
            ship.name
          ) : unknown ? (
            <span data-testid="ship-not-found">{MESSAGES.SHIP_NOT_FOUND}</span>
          ) : (
            <Skeleton width={200} />
          )}
        </Typography>
      </Stack>
      {/* A ship's pages wait for the ship list (loaded at start), so an unknown ship is never asked for. */}
      {unknown || (!overview && facilityId && !facilities) ? null : <Outlet />}
    </Box>
  );
}
