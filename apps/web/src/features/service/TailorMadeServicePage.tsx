import { Box, Typography } from '@mui/material';


/** Placeholder until its issue lands: the route exists, the screen is not built yet. */
export default function TailorMadeServicePage() {
  return (
    <Box sx={{ p: 3 }}>
      <Typography variant="h5">Tailor-made service agreements</Typography>
      
    </Box>
  );
}
