import { z } from 'zod';
import { toDate } from '../rules/dates';
import { fieldErrors, type FieldErrors } from './errors';
import { optionalNameText, userText } from './text';

export const MESSAGE_FORM_MESSAGES = {
  textRequired: 'Message is required',
  showFromRequired: 'Specify when the message is shown from',
  showFromBeforeShowTo: 'Must be before "Show to"',
  showToRequired: 'Specify when the message is shown to',
  showToAfterShowFrom: 'Must be after "Show from"',
  // Ours.
  invalidDate: 'Must be a valid date',
} as const;
const M = MESSAGE_FORM_MESSAGES;

/** Ours: the spec gives no limits. */
export const MESSAGE_TITLE_MAX_LENGTH = 200;
export const MESSAGE_TEXT_MAX_LENGTH = 10_000;

const instant = (requiredMessage: string) =>
  z.preprocess(
    (v) => (v === undefined || v === '' ? null : v),
    z
      .union([z.string(), z.date()], { error: M.invalidDate })
      .nullable()
      .transform((v, ctx) => {
        if (v === null) {
          ctx.addIssue({ code: 'custom', message: requiredMessage });
          return z.NEVER;
        }
        const date = toDate(v);
        if (!date) {
          ctx.addIssue({ code: 'custom', message: M.invalidDate });
          return z.NEVER;
        }
        return date.toISOString();
      }),
  );

/**
 * Compose or edit a broadcast message. Show from and show until are UTC instants; from must be strictly before to.
 * The title is a name (trimmed, the name rule); the text is stored exactly as written and always shown as text.
 */
export const messageFormSchema = z
  .object({
    title: z.preprocess((v) => v ?? '', optionalNameText(MESSAGE_TITLE_MAX_LENGTH)),
    text: userText({ error: M.textRequired })
      .max(MESSAGE_TEXT_MAX_LENGTH, `Cannot be longer than ${MESSAGE_TEXT_MAX_LENGTH} characters`)
      .refine((t) => t.trim() !== '', M.textRequired),
    showFrom: instant(M.showFromRequired),
    showTo: instant(M.showToRequired),
    notify: z.boolean().default(false),
  })
  .superRefine((v, ctx) => {
    if (typeof v.showFrom === 'string' && typeof v.showTo === 'string' && v.showFrom >= v.showTo) {
      ctx.addIssue({ code: 'custom', message: M.showFromBeforeShowTo, path: ['showFrom'] });
      ctx.addIssue({ code: 'custom', message: M.showToAfterShowFrom, path: ['showTo'] });
    }
  });
export type MessageFormValues = z.infer<typeof messageFormSchema>;
export const validateMessageForm = (values: unknown): FieldErrors<keyof MessageFormValues> =>
  fieldErrors(messageFormSchema, values);

/** Cancelling asks to discard only when something was typed. */
export function isDraftEmpty(values: {
  title?: string | null;
  text?: string | null;
  showFrom?: unknown;
  showTo?: unknown;
}): boolean {
  return !values.title?.trim() && !values.text?.trim() && !values.showFrom && !values.showTo;
}
