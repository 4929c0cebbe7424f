import type { ReactNode } from 'react';
import { Box, Card, CardContent, Typography } from '@mui/material';

export interface ServicePoint {
  title: string;
  text: string;
}

/** A marketing page of the service section: lead, points as cards, closing paragraph. */
export function ServiceArticle({
  title,
  lead,
  points,
  children,
}: {
  title: string;
  lead: string;
  points: ServicePoint[];
  children?: ReactNode;
}) {
  return (
    <Box component="article" sx={{ maxWidth: 1040 }}>
      <Typography variant="h4" component="h2" gutterBottom sx={{ fontWeight: 600 }}>
        {title}
      </Typography>
      <Typography variant="body1" sx={{ fontSize: '1.1rem', mb: 3, maxWidth: 760 }} color="text.secondary">
        {lead}
      </Typography>
      <Box
        sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', lg: '1fr 1fr 1fr' } }}
      >
        {points.map((p) => (
          <Card key={p.title} variant="outlined">
            <CardContent>
              <Typography variant="h6" component="h3" gutterBottom>
                {p.title}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {p.text}
              </Typography>
            </CardContent>
          </Card>
        ))}
      </Box>
      {children && <Box sx={{ mt: 3, maxWidth: 760 }}>{children}</Box>}
    </Box>
  );
}
