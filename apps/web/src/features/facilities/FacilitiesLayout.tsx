import { Link as RouterLink, Outlet, useLocation, useParams } from 'react-router';
import { Box, IconButton, Stack, Tooltip, Typography } from '@mui/material';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { useFleet } from '../../app/fleet-context';

/**
 * /facilities: titled "Facility overview" on the overview; on a ship's pages (files, configuration) a back
 * button to /facilities and the ship's name.
 */
export default function FacilitiesLayout() {
  const { pathname } = useLocation();
  const { facilityId } = useParams();
  const { facilities } = useFleet();
  const overview = pathname.replace(/\/+$/, '').split('/').pop() === 'overview';
  const ship = facilities?.find((f) => f.id === facilityId);
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
          {overview ? 'Facility overview' : (ship?.name ?? 'Ship')}
        </Typography>
      </Stack>
      <Outlet />
    </Box>
  );
}
