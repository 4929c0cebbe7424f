import { Link as RouterLink } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Box, Card, CardContent, Chip, Link, Skeleton, Stack, Typography } from '@mui/material';
import { isInformational, openEventsSummary } from './display';
import { openEventsQuery } from './events-api';

const listLink = (search: string) => `/events?state=open&state=acknowledged${search}`;

/**
 * The fleet dashboard's "Open events": the events not closed of every ship the user sees (whatever the period: an
 * open event stays to be dealt with). The reports to the flag State and the port State that are due come first,
 * then the counts by type; each links to the list filtered so.
 */
export function OpenEventsCard() {
  const open = useQuery(openEventsQuery());
  const summary = open.data ? openEventsSummary(open.data) : null;
  const due = summary?.reportsDue ?? 0;
  return (
    <Card data-testid="card-open-events" sx={{ height: '100%' }}>
      <CardContent>
        <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', minHeight: 34 }}>
          <Typography variant="subtitle2" component="h2" color="text.secondary">
            Open events
          </Typography>
          <Link component={RouterLink} to={listLink('')} variant="body2">
            All open events
          </Link>
        </Stack>
        {!summary ? (
          <>
            <Skeleton width="40%" height={48} />
            <Skeleton width="70%" />
          </>
        ) : (
          <Stack
            direction={{ xs: 'column', md: 'row' }}
            spacing={{ xs: 1.5, md: 4 }}
            sx={{ alignItems: { md: 'center' } }}
          >
            <Stack direction="row" spacing={1.5} sx={{ alignItems: 'baseline', flexShrink: 0 }}>
              <Typography
                variant="h4"
                component="div"
                sx={{ fontWeight: 600 }}
                color={due ? 'error' : 'text.primary'}
                data-testid="open-events-reports-due"
                data-value={due}
              >
                {due}
              </Typography>
              <Link
                component={RouterLink}
                to={listLink('&report=required')}
                variant="body2"
                color={due ? 'error' : 'text.secondary'}
                sx={{ fontWeight: due ? 600 : 400 }}
              >
                {due === 1 ? 'report' : 'reports'} to the flag State and port State due
              </Link>
            </Stack>
            <Box
              component="ul"
              sx={{ listStyle: 'none', p: 0, m: 0, display: 'flex', flexWrap: 'wrap', gap: 1 }}
              data-testid="open-events-by-type"
              data-value={summary.total}
            >
              {summary.byType.length === 0 && (
                <Typography component="li" variant="body2" color="text.secondary">
                  Nothing open
                </Typography>
              )}
              {summary.byType.map((t) => (
                <li key={t.type}>
                  <Chip
                    clickable
                    component={RouterLink}
                    to={listLink(`&type=${t.type}`)}
                    variant="outlined"
                    color={isInformational(t.type) ? 'default' : 'warning'}
                    label={
                      <>
                        {t.name}: <strong>{t.count}</strong>
                      </>
                    }
                    data-testid={`open-events-${t.type}`}
                  />
                </li>
              ))}
            </Box>
          </Stack>
        )}
      </CardContent>
    </Card>
  );
}
