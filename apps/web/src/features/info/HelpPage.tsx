import { Box, Link, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { portalSettings } from '../../lib/settings';

const SECTIONS: { title: string; paragraphs: string[] }[] = [
  {
    title: 'The period',
    paragraphs: [
      'The period at the top of the side panel decides what every dashboard shows. Last month is the previous calendar month. A custom period runs from the start of the first chosen day to the end of the last one. All times are UTC.',
      'Your choice is remembered in this browser.',
    ],
  },
  {
    title: 'The fleet filter',
    paragraphs: [
      'The filter button next to My fleet narrows the ships on the fleet dashboard and in the side panel. Tick the ships to show; with nothing ticked, all ships are shown. System administrators can also filter by organization, scrubber system type, number of scrubbers and manufacturer, and can exclude the ticked ships instead.',
      'Apply is not possible when no ship would remain. If the ship you are looking at is filtered out, the portal takes you back to My fleet.',
    ],
  },
  {
    title: 'Uploading data',
    paragraphs: [
      'Open Ships in the top bar and choose Upload data for a ship. Add the logger files (.csv, .txt or .xlsx, as the data source allows) one at a time or as a .zip archive. Then select the files and run the calculation: the ship list shows Processing with the start time until the results are ready.',
    ],
  },
  {
    title: 'Messages',
    paragraphs: [
      'The bell in the top bar shows messages from the portal team, such as planned maintenance. Mark a message as read to clear it from the count.',
    ],
  },
  {
    title: 'Dates and numbers',
    paragraphs: [
      'Dates are shown as YYYY.MM.DD, in UTC. "No data" means no values were uploaded or calculated for the period. Tonnes under 1 t are shown in kg; very large amounts in MT.',
    ],
  },
];

/** /help: how to use the portal, and whom to call. */
export default function HelpPage() {
  const { supportPhone } = portalSettings();
  return (
    <Box sx={{ p: { xs: 2, md: 3 }, maxWidth: 820 }}>
      <Typography variant="h5" component="h1" gutterBottom>
        Help
      </Typography>
      {SECTIONS.map((s) => (
        <Box key={s.title} component="section" sx={{ mb: 3 }}>
          <Typography variant="h6" component="h2" gutterBottom>
            {s.title}
          </Typography>
          {s.paragraphs.map((p) => (
            <Typography key={p.slice(0, 20)} sx={{ mb: 2 }}>
              {p}
            </Typography>
          ))}
        </Box>
      ))}
      <Typography variant="h6" component="h2" gutterBottom>
        Still stuck?
      </Typography>
      {/* Without a configured phone (SUPPORT_PHONE) no number is shown, and none is made up. */}
      <Typography>
        {supportPhone ? `Call support on ${supportPhone}, or read the ` : 'Read the '}
        <Link component={RouterLink} to="/service/pureserv">
          service pages
        </Link>
        .
      </Typography>
    </Box>
  );
}
