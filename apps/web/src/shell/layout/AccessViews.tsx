import { useEffect, useState, type ReactNode } from 'react';
import { Link, useLocation, useMatches, useNavigate } from 'react-router';
import { Box, Button, Paper, Stack, Typography } from '@mui/material';
import { mayOpen, requiredRoles } from '../../lib/access';
import { onAccessDenied, type AccessDenial } from '../../lib/api';
import { signInAgain } from '../../lib/auth';
import { useSession } from '../../lib/session';

export const NO_ACCESS_TITLE = 'You do not have access to this page';

/** A notice in the page area of the shell: a heading, a text and its actions. */
export function ShellNotice({
  title,
  children,
  actions,
  testId,
}: {
  title: string;
  children: ReactNode;
  actions: ReactNode;
  testId: string;
}) {
  return (
    <Box sx={{ p: { xs: 2, sm: 4 }, display: 'grid', placeItems: 'center' }}>
      <Paper
        variant="outlined"
        sx={{ p: { xs: 3, sm: 5 }, maxWidth: 600, width: '100%' }}
        data-testid={testId}
      >
        <Typography variant="h5" component="h1" gutterBottom>
          {title}
        </Typography>
        <Typography color="text.secondary" component="div" sx={{ mb: 3 }}>
          {children}
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
          {actions}
        </Stack>
      </Paper>
    </Box>
  );
}

/** The way back: the previous page of the portal when there is one, and My fleet. */
function WayBack() {
  const navigate = useNavigate();
  // React Router numbers the entries of this tab's history; 0 is the page the tab opened with.
  const canGoBack = ((window.history.state as { idx?: number } | null)?.idx ?? 0) > 0;
  return (
    <>
      {canGoBack && (
        <Button variant="outlined" onClick={() => void navigate(-1)}>
          Go back
        </Button>
      )}
      <Button component={Link} to="/" variant="contained">
        Go to My fleet
      </Button>
    </>
  );
}

/** A 403 or a route the role may not open: said inside the shell, never a sign-in round trip. */
export function NoAccessView() {
  return (
    <ShellNotice title={NO_ACCESS_TITLE} testId="no-access" actions={<WayBack />}>
      Your role does not include this page. If you need it, ask an administrator of your organization.
    </ShellNotice>
  );
}

/** A 401 right after a sign-in for this page: the loop stops here and the user decides. */
export function SignedOutView() {
  return (
    <ShellNotice
      title="Your sign-in was not accepted"
      testId="signed-out"
      actions={
        <>
          <Button
            variant="contained"
            onClick={() =>
              signInAgain(window.location.pathname + window.location.search + window.location.hash)
            }
          >
            Sign in again
          </Button>
          <WayBack />
        </>
      }
    >
      The portal refused the sign-in for this page again. Sign in again, or try later.
    </ShellNotice>
  );
}

/**
 * Renders the page only when the user's role may open every level of the matched route (the `roles` of the
 * route table) and the API did not refuse a read of this page; otherwise the no-access view, inside the shell.
 */
export function AccessGate({ children }: { children: ReactNode }) {
  const { profile } = useSession();
  const matches = useMatches();
  const { pathname } = useLocation();
  const [denied, setDenied] = useState<{ denial: AccessDenial; path: string } | null>(null);
  useEffect(() => onAccessDenied((denial, path) => setDenied({ denial, path })), []);

  if (!mayOpen(profile?.roles ?? [], requiredRoles(matches))) return <NoAccessView />;
  if (denied?.path === pathname) return denied.denial === 'forbidden' ? <NoAccessView /> : <SignedOutView />;
  return <>{children}</>;
}
