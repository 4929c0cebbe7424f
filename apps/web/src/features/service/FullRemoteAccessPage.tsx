import { Box, Typography } from '@mui/material';


/** Placeholder until its issue lands: the route exists, the screen is not built yet. */
export default function FullRemoteAccessPage() {
  return (
    <Box sx={{ p: 3 }}>
      <Typography variant="h5">Full remote access</Typography>
      
    </Box>
  );
}
