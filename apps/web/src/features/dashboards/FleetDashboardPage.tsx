import { Card, CardContent, Chip, Stack, Typography } from '@mui/material';
import { useSession } from '../../app/session';

export default function FleetDashboardPage() {
  const { profile } = useSession();
  return (
    <Card sx={{ m: 3 }}>
      <CardContent>
        <Typography variant="h5" gutterBottom>
          My fleet
        </Typography>
        <Typography data-testid="signed-in-user">{profile?.username}</Typography>
        <Typography data-testid="signed-in-organization" color="text.secondary">
          {profile?.organizationName}
        </Typography>
        <Stack direction="row" spacing={1} sx={{ mt: 1 }}>
          {profile?.roles.map((role) => (
            <Chip key={role} label={role} data-testid="signed-in-role" size="small" />
          ))}
        </Stack>
      </CardContent>
    </Card>
  );
}
