import { useQuery } from '@tanstack/react-query';
import { Box, Link, Typography } from '@mui/material';
import { versionQuery } from '../../lib/queries/version';
import { portalSettings } from '../../lib/settings';

/** Version and build number from the API; support phone and company text from settings. */
export function Footer() {
  const { data: version } = useQuery(versionQuery());
  const { supportPhone, companyText } = portalSettings();
  return (
    <Box
      component="footer"
      sx={{
        px: 3,
        py: 1.5,
        borderTop: 1,
        borderColor: 'divider',
        bgcolor: 'background.paper',
        display: 'flex',
        flexWrap: 'wrap',
        gap: { xs: 0.5, sm: 3 },
        justifyContent: 'space-between',
      }}
    >
      <Typography variant="caption" color="text.secondary" data-testid="footer-version">
        {version ? `Version ${version.version} (build ${version.build})` : 'Version …'}
      </Typography>
      {supportPhone && (
        <Typography variant="caption" color="text.secondary">
          Support: <Link href={`tel:${supportPhone.replace(/\s/g, '')}`}>{supportPhone}</Link>
        </Typography>
      )}
      {companyText && (
        <Typography variant="caption" color="text.secondary">
          {companyText}
        </Typography>
      )}
    </Box>
  );
}
