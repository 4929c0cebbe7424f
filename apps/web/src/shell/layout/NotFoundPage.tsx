import { Box, Button, Typography } from '@mui/material';
import { Link } from 'react-router';
import { PageHeading } from '../../ui/headings/PageHeading';

export default function NotFoundPage() {
  return (
    <Box sx={{ p: 6, textAlign: 'center' }}>
      <PageHeading variant="h4" gutterBottom>
        Page not found
      </PageHeading>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        There is nothing at this address.
      </Typography>
      <Button component={Link} to="/" variant="contained">
        Go to My fleet
      </Button>
    </Box>
  );
}
