import type { ReactElement } from 'react';
import { Tooltip } from '@mui/material';

/** A disabled button says why in a tooltip (a disabled button gets no pointer events, so a span carries it). */
export function WhyDisabled({ reason, children }: { reason: string | undefined; children: ReactElement }) {
  if (!reason) return children;
  return (
    <Tooltip title={reason} describeChild>
      <span style={{ display: 'inline-flex' }}>{children}</span>
    </Tooltip>
  );
}
