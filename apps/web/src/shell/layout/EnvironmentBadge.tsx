import DOMPurify from 'dompurify';
import { Box, Chip } from '@mui/material';
import { portalSettings } from '../../lib/settings';

/** The environment chip (Local, Dev site, Test site, Demo site) and its disclaimer from settings.js. */
export function EnvironmentBadge() {
  const { environment } = portalSettings();
  if (!environment?.name) return null;
  const html = DOMPurify.sanitize(environment.html ?? '');
  return (
    <Box data-testid="environment">
      <Chip
        label={environment.name}
        size="small"
        sx={{ bgcolor: environment.color, color: '#fff', fontWeight: 600 }}
      />
      {html && (
        <Box
          sx={{ mt: 1, typography: 'caption', color: 'text.secondary', '& p': { m: 0 } }}
          dangerouslySetInnerHTML={{ __html: html }}
        />
      )}
    </Box>
  );
}
