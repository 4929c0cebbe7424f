import { Box, Typography } from '@mui/material';
import { Outlet } from 'react-router';

/** Placeholder until its issue lands: the route exists, the screen is not built yet. */
export default function AdminLayout() {
  return (
    <Box sx={{ p: 3 }}>
      <Typography variant="h5">Administration</Typography>
      <Outlet />
    </Box>
  );
}
