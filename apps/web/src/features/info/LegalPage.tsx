import { Box, Typography } from '@mui/material';

const SECTIONS: { title: string; text: string }[] = [
  {
    title: 'Terms of use',
    text: 'The portal is provided to the organizations that have an agreement with the service provider and to the users those organizations create. Accounts are personal; do not share your password. Figures in the portal are calculated from the data files uploaded for each ship and are only as good as those files.',
  },
  {
    title: 'Your data',
    text: 'Data uploaded for a ship belongs to the organization that owns the ship. It is visible only to that organization, to organizations it has chosen to share the ship with, and to the service provider\u2019s system administrators, who use it to run and support the service.',
  },
  {
    title: 'Personal data',
    text: 'We store your username, your organization, your role, the ships you have access to, and a log of sign-ins and significant actions. This is needed to give you access and to keep the service secure. Ask your organization\u2019s administrator or the service provider to see or delete it.',
  },
  {
    title: 'Cookies and local storage',
    text: 'The portal keeps your sign-in session, your chosen period, your fleet filter and your cookie acceptance in this browser. Nothing is used for advertising or shared with third parties.',
  },
  {
    title: 'Compliance',
    text: 'The dashboards support, but do not replace, the records a ship must keep under MARPOL Annex VI and local regulations. The ship operator remains responsible for compliance.',
  },
];

/** /legal: terms, data and cookies. */
export default function LegalPage() {
  return (
    <Box sx={{ p: { xs: 2, md: 3 }, maxWidth: 820 }}>
      <Typography variant="h5" component="h1" gutterBottom>
        Legal
      </Typography>
      {SECTIONS.map((s) => (
        <Box key={s.title} component="section" sx={{ mb: 3 }}>
          <Typography variant="h6" component="h2" gutterBottom>
            {s.title}
          </Typography>
          <Typography>{s.text}</Typography>
        </Box>
      ))}
    </Box>
  );
}
