import { z } from 'zod';
import { numberFromInput } from './errors';
import { userText } from './text';

/** Field schemas shared by several forms. */

export const QUALITY_SCORE_MAX = 5;
// Ours: the spec only says it is a star rating.
export const QUALITY_SCORE_MESSAGE = 'Rating must be a whole number from 0 to 5';

/** The star rating of a channel or calculation: a whole number from 0 to 5; no rating is null. */
export const qualityScoreSchema = z.preprocess(
  numberFromInput,
  z
    .number({ error: QUALITY_SCORE_MESSAGE })
    .int(QUALITY_SCORE_MESSAGE)
    .min(0, QUALITY_SCORE_MESSAGE)
    .max(QUALITY_SCORE_MAX, QUALITY_SCORE_MESSAGE)
    .nullable(),
);

/** Optional free text; null and undefined become ''. Stored as written (the text rule: no NUL, no lone surrogate). */
export const optionalText = z.preprocess((v) => v ?? '', userText());
