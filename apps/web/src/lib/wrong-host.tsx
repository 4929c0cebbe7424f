import { Alert, Link, type SxProps, type Theme } from '@mui/material';
import { portalAddressElsewhere } from './access';
import { peekRedirectPath } from './auth';

/**
 * The address to open instead of this one, when this page runs away from the portal's public address: the same
 * page there (on /login, the page that sent the browser to sign-in).
 */
export function wrongHostAddress(): string | null {
  const here = window.location.pathname.startsWith('/login')
    ? new URL(peekRedirectPath(), window.location.origin).href
    : window.location.href;
  return portalAddressElsewhere(here, window.settings?.publicUrl);
}

/**
 * The portal opened at another address than PUBLIC_URL (127.0.0.1 instead of localhost, an IP address instead
 * of the name): sign-in and the browser's security rules only work at the public address, so say where to go.
 */
export function WrongHostNotice({ sx }: { sx?: SxProps<Theme> }) {
  const address = wrongHostAddress();
  if (!address) return null;
  return (
    <Alert severity="warning" sx={sx} data-testid="wrong-host">
      This address is not the portal&apos;s: sign-in only works at its own address. Open the portal at{' '}
      <Link href={address} color="inherit" sx={{ fontWeight: 600 }}>
        {new URL(address).origin}
      </Link>
      .
    </Alert>
  );
}
