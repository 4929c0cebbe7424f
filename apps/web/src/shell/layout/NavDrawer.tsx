import { useState } from 'react';
import { matchPath, NavLink, useLocation, useNavigate } from 'react-router';
import {
  Box,
  Divider,
  IconButton,
  List,
  ListItem,
  ListItemButton,
  ListItemText,
  ListSubheader,
  Skeleton,
  Tooltip,
  Typography,
} from '@mui/material';
import FilterListIcon from '@mui/icons-material/FilterList';
import DirectionsBoatIcon from '@mui/icons-material/DirectionsBoat';
import { isFacilityVisible, latestDataLabel, type FleetFilter } from '@portal/contracts/rules';
import { useFleet } from '../../lib/fleet-context';
import { useSession } from '../../lib/session';
import { EnvironmentBadge } from './EnvironmentBadge';
import { FleetFilterDialog } from './FleetFilterDialog';
import { PeriodPicker } from './PeriodPicker';

/** Fleet-level pages reached from the drawer, under My fleet. */
const FLEET_PAGES = [
  { label: 'Compliance calendar', to: '/carbon/calendar' },
  { label: 'Cost cockpit', to: '/carbon/cockpit' },
];
/** The ship being viewed, if any: /ship/{id} or /facilities/{facilityId}/... */
export function viewedFacilityId(pathname: string): string | undefined {
  return (
    matchPath('/ship/:id', pathname)?.params.id ??
    matchPath('/facilities/:facilityId/*', pathname)?.params.facilityId ??
    undefined
  );
}

/** The drawer: environment, period, My fleet with the filter button, the filtered ships with their latest data date. */
export function NavDrawer({ onNavigate }: { onNavigate?: () => void }) {
  const { profile } = useSession();
  const { facilities, filteredFacilities, filter, setFilter } = useFleet();
  const [filterOpen, setFilterOpen] = useState(false);
  const location = useLocation();
  const navigate = useNavigate();
  const roles = profile?.roles ?? [];

  const apply = (next: FleetFilter) => {
    setFilter(next);
    setFilterOpen(false);
    const viewed = viewedFacilityId(location.pathname);
    // A ship being viewed that the filter now excludes: back to the fleet.
    if (
      viewed &&
      facilities?.some((f) => f.id === viewed) &&
      !isFacilityVisible(viewed, facilities, next, roles)
    )
      void navigate('/');
  };

  // A verifier uses its verification only (docs/decisions/0115-verifier.md): no fleet, period or ship dashboards.
  if (roles.includes('Verifier'))
    return (
      <Box
        sx={{ display: 'flex', flexDirection: 'column', height: '100%' }}
        component="nav"
        aria-label="Verification"
      >
        <Box sx={{ p: 2 }}>
          <EnvironmentBadge />
        </Box>
        <Divider />
        <List dense disablePadding>
          <ListItem disablePadding>
            <ListItemButton
              component={NavLink}
              to="/verification"
              onClick={onNavigate}
              sx={{ '&.active': { bgcolor: 'action.selected' } }}
            >
              <ListItemText primary="Verification" slotProps={{ primary: { sx: { fontWeight: 600 } } }} />
            </ListItemButton>
          </ListItem>
          {(profile?.verifierYears ?? []).map((year) => (
            <ListItem key={year} disablePadding>
              <ListItemButton
                component={NavLink}
                to={`/verification/${year}`}
                onClick={onNavigate}
                sx={{ pl: 4, '&.active': { bgcolor: 'action.selected' } }}
              >
                <ListItemText primary={`Reporting year ${year}`} />
              </ListItemButton>
            </ListItem>
          ))}
        </List>
      </Box>
    );

  const filtered =
    filter.facilities.length > 0 ||
    (filteredFacilities && facilities && filteredFacilities.length < facilities.length);
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%' }} component="nav" aria-label="Fleet">
      <Box sx={{ p: 2, display: 'grid', gap: 2 }}>
        <EnvironmentBadge />
        <PeriodPicker />
      </Box>
      <Divider />
      {/* A list holds list items only: the My fleet row and the heading sit beside the ships' list. */}
      <Box sx={{ flex: 1, overflow: 'auto' }}>
        <Box sx={{ display: 'flex', alignItems: 'center', pr: 1 }}>
          <ListItemButton
            component={NavLink}
            to="/"
            end
            dense
            onClick={onNavigate}
            sx={{ '&.active': { bgcolor: 'action.selected' } }}
          >
            <ListItemText primary="My fleet" slotProps={{ primary: { sx: { fontWeight: 600 } } }} />
          </ListItemButton>
          <Tooltip title="Filter ships">
            <IconButton
              aria-label="Filter ships"
              onClick={() => setFilterOpen(true)}
              color={filtered ? 'primary' : 'default'}
              data-testid="fleet-filter-button"
              disabled={!facilities}
            >
              <FilterListIcon />
            </IconButton>
          </Tooltip>
        </Box>
        {/* The fleet's carbon pages beside My fleet: its deadlines and its costs. */}
        <List dense disablePadding aria-label="Fleet carbon pages" data-testid="drawer-fleet-pages">
          {FLEET_PAGES.map((p) => (
            <ListItem key={p.to} disablePadding>
              <ListItemButton
                component={NavLink}
                to={p.to}
                onClick={onNavigate}
                sx={{ pl: 2, '&.active': { bgcolor: 'action.selected' } }}
              >
                <ListItemText primary={p.label} />
              </ListItemButton>
            </ListItem>
          ))}
        </List>
        <ListSubheader component="div" id="drawer-ships-heading" sx={{ lineHeight: '32px' }}>
          Ships{' '}
          {filteredFacilities && facilities ? `(${filteredFacilities.length} of ${facilities.length})` : ''}
        </ListSubheader>
        {!filteredFacilities && [0, 1, 2].map((i) => <Skeleton key={i} sx={{ mx: 2, my: 1 }} height={36} />)}
        {filteredFacilities?.length === 0 && (
          <Typography variant="body2" color="text.secondary" sx={{ px: 2, py: 1 }}>
            No ships
          </Typography>
        )}
        <List dense disablePadding data-testid="drawer-ships" aria-labelledby="drawer-ships-heading">
          {filteredFacilities?.map((f) => (
            <ListItem key={f.id} disablePadding>
              <ListItemButton
                component={NavLink}
                to={`/ship/${f.id}`}
                onClick={onNavigate}
                sx={{ '&.active': { bgcolor: 'action.selected' } }}
              >
                <DirectionsBoatIcon fontSize="small" color="action" sx={{ mr: 1.5 }} />
                <ListItemText primary={f.name} secondary={latestDataLabel(f.dataTimeStampMax)} />
              </ListItemButton>
            </ListItem>
          ))}
        </List>
      </Box>
      {filterOpen && facilities && (
        <FleetFilterDialog
          open
          facilities={facilities}
          filter={filter}
          roles={roles}
          onClose={() => setFilterOpen(false)}
          onApply={apply}
        />
      )}
    </Box>
  );
}
