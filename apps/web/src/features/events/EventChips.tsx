import { Chip, Stack } from '@mui/material';
import type { ComplianceEvent } from '@portal/contracts/events';
import { classificationChip, reportChip, stateChip, type ChipModel } from './display';

export function ModelChip({ model, testId }: { model: ChipModel | null; testId?: string }) {
  if (!model) return null;
  return (
    <Chip
      size="small"
      label={model.label}
      color={model.colour}
      variant={model.variant}
      data-testid={testId}
      sx={{ alignSelf: 'flex-start' }}
    />
  );
}

/** Classification, state and report chips of an event, side by side (wrapping on a narrow column). */
export function EventChips({
  event,
  direction = 'row',
}: {
  event: ComplianceEvent;
  direction?: 'row' | 'column';
}) {
  return (
    <Stack direction={direction} spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
      <ModelChip model={classificationChip(event.classification)} testId="event-classification" />
      <ModelChip model={stateChip(event)} testId="event-state" />
      <ModelChip model={reportChip(event)} testId="event-report" />
    </Stack>
  );
}
