import { useMemo, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { Box, Button, InputAdornment, Link, Paper, Stack, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, TextField } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import SearchIcon from '@mui/icons-material/Search';
import { canManageAllOrganizations } from '@portal/contracts/rules';
import { useSession } from '../../app/session';
import { useAdmin } from './admin-context';
import { OrganizationDialog } from './OrganizationDialog';

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
      <Stack direction="row" spacing={2} sx={{ mb: 2, alignItems: 'center' }}>
        <TextField
          size="small"
          placeholder="Search"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          slotProps={{ input: { startAdornment: <InputAdornment position="start"><SearchIcon /></InputAdornment> }, htmlInput: { 'aria-label': 'Search organizations' } }}
        />
        <Box sx={{ flex: 1 }} />
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setAdding(true)}>
          Add organization
        </Button>
      </Stack>
      <TableContainer component={Paper} variant="outlined">
        <Table size="small" aria-label="Organizations">
          <TableHead>
            <TableRow>
              <TableCell>Name</TableCell>
              <TableCell>Contact email</TableCell>
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
                </TableCell>
                <TableCell>{o.email}</TableCell>
                <TableCell align="right">{o.facilityCount}</TableCell>
                <TableCell align="right">{o.userCount}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      {adding && <OrganizationDialog systemAdmin={canManageAllOrganizations(profile?.roles ?? [])} onClose={() => setAdding(false)} />}
    </Box>
  );
}
