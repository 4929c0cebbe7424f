import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import {
  Alert,
  Box,
  Button,
  Link,
  Paper,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { formatDateTime, MESSAGES } from '@portal/contracts/rules';
import { InviteVerifierDialog } from './InviteVerifierDialog';
import { verifiersQuery } from './verification-api';

/**
 * An organization's verifiers on its administration page (its UserAdmin, or a SystemAdmin): who was invited for
 * which years and whether the invitation was taken up; Invite verifier; the verification of each year.
 */
export function VerifiersSection({ organizationId }: { organizationId: string }) {
  const verifiers = useQuery(verifiersQuery(organizationId));
  const [inviting, setInviting] = useState(false);
  const years = [...new Set(verifiers.data?.flatMap((v) => v.years) ?? [])].sort((a, b) => b - a);
  return (
    <Box component="section" aria-labelledby="verifiers-heading" sx={{ mt: 3 }} data-testid="verifiers">
      <Stack direction="row" spacing={1} sx={{ mb: 1, alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography variant="h6" component="h3" id="verifiers-heading" sx={{ flex: 1 }}>
          Verifiers
        </Typography>
        <Button variant="outlined" onClick={() => setInviting(true)}>
          Invite verifier
        </Button>
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        An outside verifier of your emissions monitoring, invited for reporting years: it reads the ledger and
        records its findings and opinion.
        {years.length > 0 && (
          <>
            {' '}
            Verification of{' '}
            {years.map((y, i) => (
              <span key={y}>
                {i > 0 && ', '}
                <Link component={RouterLink} to={`/verification/${organizationId}/${y}`}>
                  {y}
                </Link>
              </span>
            ))}
            .
          </>
        )}
      </Typography>
      {verifiers.isError ? (
        <Alert severity="error">{verifiers.error.message || MESSAGES.DEFAULT_ERROR}</Alert>
      ) : !verifiers.data ? (
        <Skeleton variant="rounded" height={48} />
      ) : verifiers.data.length === 0 ? (
        <Paper variant="outlined" sx={{ p: 2 }}>
          <Typography variant="body2">No verifier is invited.</Typography>
        </Paper>
      ) : (
        <TableContainer component={Paper} variant="outlined">
          <Table size="small" aria-labelledby="verifiers-heading">
            <TableHead>
              <TableRow>
                <TableCell>E-mail</TableCell>
                <TableCell>Years</TableCell>
                <TableCell>Invited</TableCell>
                <TableCell>Password chosen</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {verifiers.data.map((v) => (
                <TableRow key={v.userId} data-testid="verifier-row">
                  <TableCell sx={{ overflowWrap: 'anywhere' }}>{v.email}</TableCell>
                  <TableCell>{v.years.join(', ')}</TableCell>
                  <TableCell>{formatDateTime(v.invitedOn)}</TableCell>
                  <TableCell>{v.acceptedOn ? formatDateTime(v.acceptedOn) : 'Not yet'}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {inviting && (
        <InviteVerifierDialog organizationId={organizationId} onClose={() => setInviting(false)} />
      )}
    </Box>
  );
}
