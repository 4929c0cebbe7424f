import { Typography } from '@mui/material';

/**
 * The CO2 reduction is the CO2 a scrubber saves against running its pumps at a rated 1.5 % of the ship's
 * installed power (DOMAIN.md, CO2_SAVED). Below zero it drew more than that, and a bare "−17.7 t" explains
 * nothing: the card says why.
 */
export const NEGATIVE_CO2_REDUCTION =
  'Below zero: the scrubber drew more power than the rated 1.5\u00a0% of the installed power, so it caused more CO2 than it saved.';

/** The note of a CO2 reduction card: when the period's or the lifetime value shown is below zero. */
export function co2ReductionNote(values: readonly (number | null | undefined)[]): string | null {
  return values.some((v) => typeof v === 'number' && v < 0) ? NEGATIVE_CO2_REDUCTION : null;
}

/** The note under the CO2 reduction's values, or nothing. */
export function Co2ReductionNote({
  values,
  testId,
}: {
  values: readonly (number | null | undefined)[];
  testId: string;
}) {
  const note = co2ReductionNote(values);
  if (!note) return null;
  return (
    <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 1 }} data-testid={testId}>
      {note}
    </Typography>
  );
}
