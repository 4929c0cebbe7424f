import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { Box, Card, CardContent, Link, Typography } from '@mui/material';
import type { ComplianceEvent } from '@portal/contracts/events';
import { describeEvent, formatDate, formatDateTime, worstReadingLabel } from '@portal/contracts/rules';
import { EventChips } from './EventChips';
import { eventDurationText, eventEndText, ordinal, positionText, worstValueText } from './display';

/**
 * What was derived: type (by its criterion or channel), instrument, ship, times, worst value against its limit with
 * its unit, positions, classification, report; the texts of the event description (rules/event-description.ts).
 */
export function EventFacts({ event }: { event: ComplianceEvent }) {
  const description = describeEvent(event);
  const facts: [string, ReactNode, string][] = [
    ['Type', description.title, 'type'],
    ['Instrument', description.instrument, 'instrument'],
    [
      'Ship',
      <Link key="ship" component={RouterLink} to={`/ship/${event.facilityId}`}>
        {event.facilityName}
      </Link>,
      'ship',
    ],
    ['Start (UTC)', formatDateTime(event.start), 'start'],
    ['End (UTC)', eventEndText(event), 'end'],
    ['Duration', eventDurationText(event), 'duration'],
    [description.measure ? worstReadingLabel(event) : 'Worst value', worstValueText(event), 'worst'],
    ['Position at start', positionText(event.startPosition), 'start-position'],
    ['Position at end', positionText(event.endPosition), 'end-position'],
    [
      'Report to flag and port State',
      event.reportRequired
        ? event.reportSentOn
          ? `Sent on ${formatDate(event.reportSentOn)}`
          : 'Required'
        : 'Not required',
      'report-required',
    ],
  ];
  return (
    <Card data-testid="event-facts">
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          Facts
        </Typography>
        <EventChips event={event} />
        <Box
          component="dl"
          sx={{
            display: 'grid',
            gridTemplateColumns: { xs: '1fr', sm: 'minmax(140px, max-content) 1fr' },
            columnGap: 2,
            rowGap: { xs: 0, sm: 0.75 },
            mt: 2,
            mb: 0,
            '& dt': { color: 'text.secondary', typography: 'body2', mt: { xs: 1, sm: 0 } },
            '& dd': { m: 0, typography: 'body2', overflowWrap: 'anywhere' },
          }}
        >
          {facts.map(([label, value, id]) => (
            <Box key={id} sx={{ display: 'contents' }}>
              <dt>{label}</dt>
              <dd data-testid={`fact-${id}`}>{value}</dd>
            </Box>
          ))}
        </Box>
        <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 2 }}>
          Rules in force: transient under {event.rules.transientMinutes} min; a report is required for a
          malfunction longer than {event.rules.reportMinutes} min and for a repeated one (the{' '}
          {ordinal(event.rules.repeatedCount)} or later transient within {event.rules.repeatedWindowHours} h).
        </Typography>
      </CardContent>
    </Card>
  );
}
