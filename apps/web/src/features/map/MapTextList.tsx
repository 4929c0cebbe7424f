import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import {
  Accordion,
  AccordionDetails,
  AccordionSummary,
  Box,
  Link,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import type { Track } from '@portal/contracts/map';
import {
  inForceText,
  sourceParts,
  trackRows,
  ZONE_KIND_NAMES,
  type MapMarker,
  type MapZone,
} from './display';

/** A table that scrolls sideways on a phone (reachable by keyboard, named for screen readers). */
function TextTable({
  caption,
  head,
  rows,
  testId,
}: {
  caption: string;
  head: string[];
  rows: { key: string; cells: ReactNode[] }[];
  testId: string;
}) {
  return (
    <Box sx={{ overflowX: 'auto', mb: 2 }} tabIndex={0} role="region" aria-label={caption}>
      <Table size="small" data-testid={testId}>
        <caption style={{ captionSide: 'top', textAlign: 'left', padding: '4px 0', fontWeight: 600 }}>
          {caption}
        </caption>
        <TableHead>
          <TableRow>
            {head.map((h) => (
              <TableCell key={h}>{h}</TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={row.key} data-testid={`${testId}-row`}>
              {row.cells.map((cell, i) => (
                <TableCell key={i}>{cell}</TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}

/**
 * What the map shows, as text: the zones (with what each bans, since when, on whose word), the track's segments and
 * the markers. Collapsed under the map; for screen readers and for anyone who wants the facts rather than the picture.
 */
export function MapTextList({
  zones,
  track,
  markers = [],
  markerCaption,
}: {
  zones: readonly MapZone[];
  track?: Track | null;
  markers?: readonly MapMarker[];
  markerCaption?: string;
}) {
  const now = new Date();
  return (
    <Accordion
      disableGutters
      variant="outlined"
      data-testid="map-text"
      // Under the page title (h1): a section of its own.
      slotProps={{ heading: { component: 'h2' } }}
    >
      <AccordionSummary expandIcon={<ExpandMoreIcon />}>
        <Typography>The map as text</Typography>
      </AccordionSummary>
      <AccordionDetails>
        {track ? (
          track.segments.length ? (
            <TextTable
              caption="Track"
              head={['From', 'To', 'Scrubber', 'Starts at', 'Ends at']}
              testId="map-track-list"
              rows={trackRows(track).map((r, i) => ({
                key: String(i),
                cells: [r.from, r.to, r.mode, r.start, r.end],
              }))}
            />
          ) : (
            <Typography variant="body2" sx={{ mb: 2 }}>
              No positions in this period
            </Typography>
          )
        ) : null}
        {markers.length ? (
          <TextTable
            caption={markerCaption ?? 'Markers'}
            head={['Name', 'Details', '']}
            testId="map-marker-list"
            rows={markers.map((m) => ({
              key: m.id,
              cells: [
                m.title,
                m.lines.join(' · '),
                m.link ? (
                  <Link component={RouterLink} to={m.link.href}>
                    {m.link.text}
                  </Link>
                ) : null,
              ],
            }))}
          />
        ) : null}
        <TextTable
          caption="Zones"
          head={['Zone', 'Kind', 'Bans', 'In force', 'Source']}
          testId="map-zone-list"
          rows={zones.map((z) => {
            const source = sourceParts(z.source);
            return {
              key: z.id,
              cells: [
                `${z.name} (${z.country})`,
                ZONE_KIND_NAMES[z.kind],
                z.bans,
                inForceText(z.inForceFrom, now).replace('In force from ', 'From '),
                source.url ? (
                  <>
                    {source.text}{' '}
                    <Link href={source.url} target="_blank" rel="noopener noreferrer">
                      Source document
                    </Link>
                  </>
                ) : (
                  source.text
                ),
              ],
            };
          })}
        />
      </AccordionDetails>
    </Accordion>
  );
}
