import type { FormEvent, ReactNode } from 'react';
import { Card, CardContent, Typography } from '@mui/material';

/**
 * A settings form as a card of its own on a page (an organization's alert defaults, event rules, data health
 * thresholds): the form named by its title for assistive technology, the heading, then the fields.
 */
export function SettingsCard({
  title,
  testId,
  onSubmit,
  children,
}: {
  title: string;
  testId: string;
  onSubmit: (event: FormEvent) => void;
  children: ReactNode;
}) {
  return (
    <Card
      component="form"
      variant="outlined"
      onSubmit={onSubmit}
      noValidate
      aria-label={title}
      data-testid={testId}
      sx={{ mt: 3 }}
    >
      <CardContent sx={{ display: 'grid', gap: 2 }}>
        <Typography variant="h6" component="h2">
          {title}
        </Typography>
        {children}
      </CardContent>
    </Card>
  );
}
