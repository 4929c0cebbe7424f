import { useMemo, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import {
  Box,
  Button,
  InputAdornment,
  Link,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import SearchIcon from '@mui/icons-material/Search';
import { canManageAllOrganizations } from '@portal/contracts/rules';
import { useSession } from '../../lib/session';
import { useAdmin } from './admin-context';
import { OrganizationDialog } from './OrganizationDialog';

// On a phone the contact email moves under the name, so names keep their width.
const wideOnly = { display: { xs: 'none', sm: 'table-cell' } } as const;

/** The organizations (SystemAdmin): search by name, contact email, ship and user counts, a link to manage each. */
export default function OrganizationsPage() {
  const { organizations } = useAdmin();
  const { profile } = useSession();
  const [search, setSearch] = useState('');
  const [adding, setAdding] = useState(false);
  const shown = useMemo(() => {
    const needle = search.trim().toLowerCase();
    return organizations.filter((o) => o.name.toLowerCase().includes(needle));
  }, [organizations, search]);

  return (
    <Box>
      <Stack direction="row" spacing={{ xs: 1, sm: 2 }} sx={{ mb: 2, alignItems: 'center' }}>
        <TextField
          size="small"
          sx={{ flex: { xs: 1, sm: '0 1 280px' }, minWidth: 0 }}
          placeholder="Search"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          slotProps={{
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon />
                </InputAdornment>
              ),
            },
            htmlInput: { 'aria-label': 'Search organizations' },
          }}
        />
        <Box sx={{ flex: 1, display: { xs: 'none', sm: 'block' } }} />
        <Button
          variant="contained"
          startIcon={<AddIcon />}
          onClick={() => setAdding(true)}
          sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
        >
          Add organization
        </Button>
      </Stack>
      <TableContainer component={Paper} variant="outlined">
        <Table size="small" aria-label="Organizations">
          <TableHead>
            <TableRow>
              <TableCell>Name</TableCell>
              <TableCell sx={wideOnly}>Contact email</TableCell>
              <TableCell align="right">Ships</TableCell>
              <TableCell align="right">Users</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {shown.map((o) => (
              <TableRow key={o.id} hover>
                <TableCell>
                  <Link component={RouterLink} to={`/admin/${encodeURIComponent(o.id)}/manage`}>
                    {o.name}
                  </Link>
                  {o.email && (
                    <Typography
                      variant="body2"
                      color="text.secondary"
                      sx={{ display: { xs: 'block', sm: 'none' }, overflowWrap: 'anywhere' }}
                    >
                      {o.email}
                    </Typography>
                  )}
                </TableCell>
                <TableCell sx={wideOnly}>{o.email}</TableCell>
                <TableCell align="right">{o.facilityCount}</TableCell>
                <TableCell align="right">{o.userCount}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      {adding && (
        <OrganizationDialog
          systemAdmin={canManageAllOrganizations(profile?.roles ?? [])}
          onClose={() => setAdding(false)}
        />
      )}
    </Box>
  );
}
