import { z } from 'zod';
import {
  EVENT_CAUSES,
  FUEL_SULFUR_MAX,
  FUEL_SULFUR_MESSAGES,
  RECORD_BOOK_ENTRY_KINDS,
  acknowledgeEventSchema,
  eventReportSentSchema,
  newRecordBookEntrySchema,
  type AcknowledgeEvent,
} from '../events';
import { channelFuelTypeSchema, type ChannelFuelType } from '../fuel-channels';
import { parseDateOnly, toDate } from '../rules/dates';
import { fieldErrors, numberFromInput, type FieldErrors } from './errors';
import { userText } from './text';

/** The texts of the event and record book forms (ours: the spec has none; in its tone). */
export const EVENT_FORM_MESSAGES = {
  causeRequired: 'Choose a cause',
  actionsRequired: 'Describe the actions taken',
  kindRequired: 'Choose the kind of entry',
  textRequired: 'Describe the entry',
  timeRequired: 'Provide the time of the entry',
  invalidDate: 'Must be a valid date',
  sentOnRequired: 'Provide the date the report was sent',
  latitude: 'Must be a latitude from -90 to 90',
  longitude: 'Must be a longitude from -180 to 180',
  positionPair: 'Provide both latitude and longitude, or neither',
  correctionText: 'Describe what the corrected entry should say',
} as const;
const M = EVENT_FORM_MESSAGES;

/** Acknowledge: a cause from the fixed list and the actions taken are required, the comment is not. */
export const acknowledgeFormSchema = acknowledgeEventSchema.extend({
  cause: z.enum(EVENT_CAUSES, { message: M.causeRequired }),
  actionsTaken: userText()
    .trim()
    .min(1, M.actionsRequired)
    .max(4000, 'Cannot be longer than 4000 characters'),
});
export interface AcknowledgeFormValues {
  cause: string;
  actionsTaken: string;
  comment: string;
}
export const validateAcknowledge = (
  values: AcknowledgeFormValues,
): FieldErrors<keyof AcknowledgeFormValues> => fieldErrors(acknowledgeFormSchema, values);
/** The request body of a valid form. */
export const acknowledgeBody = (values: AcknowledgeFormValues): AcknowledgeEvent =>
  acknowledgeFormSchema.parse(values);

/** A record book entry as typed: kind, time (an ISO instant from the picker, null when empty), text, position. */
export interface RecordBookEntryFormValues {
  kind: string;
  occurredOn: string | null;
  text: string;
  latitude: string;
  longitude: string;
  /** The corrected entry's id (a correction), else null. */
  correctsId: string | null;
  /**
   * A fuel change-over's sulfur content (% m/m) of the fuel from then on, as typed: required for a fuel change-over,
   * optional on the correction of one (empty: it did not happen), not sent for other kinds.
   */
  fuelSulfurPct: string;
  /**
   * A fuel change-over's fuel in use from then on (a code of CHANNEL_FUEL_TYPES), or '' when not said: optional;
   * sent with a fuel change-over and the correction of one only.
   */
  fuelType: string;
}

/** Whether the form asks for the fuel's sulfur: a fuel change-over, or the correction of one. */
export const asksFuelSulfur = (kind: string, correctedKind?: string | null): boolean =>
  kind === 'fuel-change-over' || (kind === 'correction' && correctedKind === 'fuel-change-over');

const coordinate = (min: number, max: number, message: string) =>
  z.preprocess(numberFromInput, z.number({ error: message }).min(min, message).max(max, message).nullable());

const recordBookEntryFormSchema = z.object({
  kind: z.enum([...RECORD_BOOK_ENTRY_KINDS, 'correction'], { message: M.kindRequired }),
  occurredOn: z
    .string({ error: M.timeRequired })
    .nullable()
    .refine((v) => v !== null, M.timeRequired)
    .refine((v) => v === null || toDate(v) !== null, M.invalidDate),
  text: z.string().trim().min(1, M.textRequired),
  latitude: coordinate(-90, 90, M.latitude),
  longitude: coordinate(-180, 180, M.longitude),
  correctsId: z.string().nullable(),
  fuelSulfurPct: z.preprocess(
    numberFromInput,
    z
      .number({ error: FUEL_SULFUR_MESSAGES.range })
      .min(0, FUEL_SULFUR_MESSAGES.range)
      .max(FUEL_SULFUR_MAX, FUEL_SULFUR_MESSAGES.range)
      .nullable(),
  ),
  fuelType: z.union([z.literal(''), channelFuelTypeSchema]),
});

export const validateRecordBookEntry = (
  values: RecordBookEntryFormValues,
): FieldErrors<keyof RecordBookEntryFormValues> => {
  const errors: FieldErrors<keyof RecordBookEntryFormValues> = fieldErrors(recordBookEntryFormSchema, values);
  if (errors.text && values.kind === 'correction') errors.text = M.correctionText;
  const blank = (text: string) => text.trim() === '';
  if (!errors.latitude && !errors.longitude && blank(values.latitude) !== blank(values.longitude))
    errors[blank(values.latitude) ? 'latitude' : 'longitude'] = M.positionPair;
  if (values.kind === 'fuel-change-over' && !errors.fuelSulfurPct && blank(values.fuelSulfurPct))
    errors.fuelSulfurPct = FUEL_SULFUR_MESSAGES.required;
  if (Object.keys(errors).length) return errors;
  // The request's own rules (text rules, lengths) on what would be sent.
  return fieldErrors(newRecordBookEntrySchema, recordBookEntryBody(values));
};

/** The request body of the form (POST facilities/{id}/record-book). */
export function recordBookEntryBody(values: RecordBookEntryFormValues) {
  const number = (text: string) => (text.trim() === '' ? null : Number(text));
  return {
    kind: values.kind as (typeof RECORD_BOOK_ENTRY_KINDS)[number] | 'correction',
    occurredOn: values.occurredOn ?? '',
    text: values.text.trim(),
    latitude: number(values.latitude),
    longitude: number(values.longitude),
    correctsId: values.correctsId,
    // Only a fuel change-over and a correction carry it (the correction of another kind leaves it empty).
    fuelSulfurPct:
      values.kind === 'fuel-change-over' || values.kind === 'correction'
        ? number(values.fuelSulfurPct)
        : null,
    fuelType:
      (values.kind === 'fuel-change-over' || values.kind === 'correction') && values.fuelType !== ''
        ? (values.fuelType as ChannelFuelType)
        : null,
  };
}

/** Mark as sent: the day the report went out, YYYY-MM-DD. */
export const validateReportSent = (sentOn: string | null): FieldErrors<'sentOn'> =>
  !sentOn
    ? { sentOn: M.sentOnRequired }
    : !parseDateOnly(sentOn)
      ? { sentOn: M.invalidDate }
      : fieldErrors(eventReportSentSchema, { sentOn });
