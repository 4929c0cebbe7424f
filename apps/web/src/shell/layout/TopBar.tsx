import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import {
  AppBar,
  Box,
  Button,
  Divider,
  IconButton,
  ListItemIcon,
  Menu,
  MenuItem,
  Toolbar,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import MenuIcon from '@mui/icons-material/Menu';
import AccountCircleIcon from '@mui/icons-material/AccountCircle';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import AdminPanelSettingsIcon from '@mui/icons-material/AdminPanelSettings';
import HelpOutlinedIcon from '@mui/icons-material/HelpOutlined';
import GavelIcon from '@mui/icons-material/Gavel';
import PersonIcon from '@mui/icons-material/Person';
import LogoutIcon from '@mui/icons-material/Logout';
import { administrationPath, canUseReportConfigurator } from '@portal/contracts/rules';
import { useSession } from '../../lib/session';
import { MessageBell } from '../../features/messages';

/**
 * Main menu entries: Report Configurator is enabled for SystemAdmin only; every role sees its ships' events. A
 * Verifier has its verification only (docs/decisions/0115-verifier.md).
 */
function mainMenu(roles: Parameters<typeof canUseReportConfigurator>[0]) {
  if (roles.includes('Verifier')) return [{ label: 'Verification', to: '/verification', disabled: false }];
  return [
    { label: 'Service', to: '/service', disabled: false },
    { label: 'Ships', to: '/facilities', disabled: false },
    { label: 'Events', to: '/events', disabled: false },
    { label: 'Report Configurator', to: '/report-config', disabled: !canUseReportConfigurator(roles) },
  ];
}

/** Top bar: drawer toggle (phone), organization name, main menu, message bell, user menu. */
export function TopBar({ onToggleDrawer }: { onToggleDrawer(): void }) {
  const { profile } = useSession();
  const theme = useTheme();
  const wide = useMediaQuery(theme.breakpoints.up('md'));
  const [userMenu, setUserMenu] = useState<HTMLElement | null>(null);
  const [navMenu, setNavMenu] = useState<HTMLElement | null>(null);
  const roles = profile?.roles ?? [];
  const admin = administrationPath(roles, profile?.organizationId);
  const items = mainMenu(roles);
  const closeUser = () => setUserMenu(null);

  return (
    <AppBar position="fixed" sx={{ zIndex: (t) => t.zIndex.drawer + 1 }}>
      <Toolbar sx={{ gap: 1 }}>
        {!wide && (
          <IconButton color="inherit" edge="start" aria-label="Open ship navigation" onClick={onToggleDrawer}>
            <MenuIcon />
          </IconButton>
        )}
        {/* A phone wraps the name onto two smaller lines rather than cutting it. */}
        <Typography
          variant="h6"
          component="div"
          noWrap={wide}
          title={profile?.organizationName}
          sx={{
            flexShrink: 1,
            minWidth: 0,
            fontWeight: 600,
            ...(!wide && {
              fontSize: '1rem',
              lineHeight: 1.2,
              overflowWrap: 'anywhere',
              display: '-webkit-box',
              WebkitLineClamp: 2,
              WebkitBoxOrient: 'vertical',
              overflow: 'hidden',
            }),
          }}
          data-testid="organization-name"
        >
          {profile?.organizationName}
        </Typography>
        <Box sx={{ flex: 1 }} />
        {wide ? (
          <Box component="nav" aria-label="Main menu" sx={{ display: 'flex', gap: 0.5 }}>
            {items.map((item) => (
              <Button
                key={item.to}
                color="inherit"
                component={RouterLink}
                to={item.to}
                disabled={item.disabled}
                sx={{ '&.Mui-disabled': { color: 'rgba(255,255,255,0.5)' } }}
              >
                {item.label}
              </Button>
            ))}
          </Box>
        ) : (
          <>
            <IconButton color="inherit" aria-label="Main menu" onClick={(e) => setNavMenu(e.currentTarget)}>
              <MoreVertIcon />
            </IconButton>
            <Menu anchorEl={navMenu} open={Boolean(navMenu)} onClose={() => setNavMenu(null)}>
              {items.map((item) => (
                <MenuItem
                  key={item.to}
                  component={RouterLink}
                  to={item.to}
                  disabled={item.disabled}
                  onClick={() => setNavMenu(null)}
                >
                  {item.label}
                </MenuItem>
              ))}
            </Menu>
          </>
        )}
        {!roles.includes('Verifier') && <MessageBell />}
        <IconButton
          color="inherit"
          aria-label="User menu"
          onClick={(e) => setUserMenu(e.currentTarget)}
          data-testid="user-menu-button"
        >
          <AccountCircleIcon />
        </IconButton>
        <Menu
          anchorEl={userMenu}
          open={Boolean(userMenu)}
          onClose={closeUser}
          anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
          transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        >
          <Box sx={{ px: 2, py: 1 }}>
            <Typography variant="subtitle2">{profile?.username}</Typography>
            <Typography variant="caption" color="text.secondary">
              {profile?.roles.join(', ')}
            </Typography>
          </Box>
          <Divider />
          {admin && (
            <MenuItem component={RouterLink} to={admin} onClick={closeUser}>
              <ListItemIcon>
                <AdminPanelSettingsIcon fontSize="small" />
              </ListItemIcon>
              Administration
            </MenuItem>
          )}
          <MenuItem component={RouterLink} to="/help" onClick={closeUser}>
            <ListItemIcon>
              <HelpOutlinedIcon fontSize="small" />
            </ListItemIcon>
            Help
          </MenuItem>
          <MenuItem component={RouterLink} to="/legal" onClick={closeUser}>
            <ListItemIcon>
              <GavelIcon fontSize="small" />
            </ListItemIcon>
            Legal
          </MenuItem>
          <MenuItem component={RouterLink} to="/profile" onClick={closeUser}>
            <ListItemIcon>
              <PersonIcon fontSize="small" />
            </ListItemIcon>
            My profile
          </MenuItem>
          <MenuItem component={RouterLink} to="/logoff" onClick={closeUser}>
            <ListItemIcon>
              <LogoutIcon fontSize="small" />
            </ListItemIcon>
            Log out
          </MenuItem>
        </Menu>
      </Toolbar>
    </AppBar>
  );
}
