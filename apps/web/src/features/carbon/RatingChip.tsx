import { Chip } from '@mui/material';
import type { CiiRating } from '@portal/contracts/rules/carbon';
import { CII_RATING_COLOURS, CII_RATING_TEXT } from './display';

/** A CII rating as a coloured letter; without one, a grey dash named for screen readers. */
export function RatingChip({
  rating,
  label,
  testId,
}: {
  rating: CiiRating | null;
  /** What the rating is of ("this year", "projected"), for screen readers. */
  label: string;
  testId?: string;
}) {
  return (
    <Chip
      size="small"
      label={rating ?? '–'}
      aria-label={`${label}: ${rating ? `rating ${rating}` : 'no rating'}`}
      data-testid={testId}
      data-rating={rating ?? 'none'}
      sx={{
        fontWeight: 700,
        minWidth: 32,
        bgcolor: rating ? CII_RATING_COLOURS[rating] : 'action.selected',
        color: rating ? CII_RATING_TEXT[rating] : 'text.primary',
      }}
    />
  );
}
