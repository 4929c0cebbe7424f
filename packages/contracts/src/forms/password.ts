import { z } from 'zod';
import { GENERATED_PASSWORD_LENGTH, PASSWORD_MIN_LENGTH } from '../rules/constants';
import { fieldErrors, type FieldErrors } from './errors';
import { textCheck } from './text';

export const PASSWORD_MESSAGES = {
  required: 'A new password is required',
  minLength: 'Must be minimum 8 characters',
  number: 'Password must contain at least 1 number',
  letter: 'Password must contain at least 1 letter',
  noSpaces: 'No spaces allowed',
  confirmRequired: 'Please confirm by writing your new password again',
  mismatch: 'Passwords must match',
} as const;

const HAS_NUMBER = /\d/;
const HAS_LETTER = /\p{L}/u;
const HAS_SPACE = /\s/;

/** The password policy; messages come in this order (first one shown). */
export const newPasswordSchema = z
  .string({ error: PASSWORD_MESSAGES.required })
  .min(1, PASSWORD_MESSAGES.required)
  .min(PASSWORD_MIN_LENGTH, PASSWORD_MESSAGES.minLength)
  .regex(HAS_NUMBER, PASSWORD_MESSAGES.number)
  .regex(HAS_LETTER, PASSWORD_MESSAGES.letter)
  .refine((v) => !HAS_SPACE.test(v), PASSWORD_MESSAGES.noSpaces)
  .superRefine(textCheck);

/** Confirmation check shared by the schemas that carry a password and its confirmation. */
export function checkPasswordConfirmation(
  values: { password: string; confirmPassword?: string | null },
  ctx: z.RefinementCtx,
): void {
  const confirm = values.confirmPassword ?? '';
  if (confirm === '')
    ctx.addIssue({ code: 'custom', message: PASSWORD_MESSAGES.confirmRequired, path: ['confirmPassword'] });
  else if (confirm !== values.password)
    ctx.addIssue({ code: 'custom', message: PASSWORD_MESSAGES.mismatch, path: ['confirmPassword'] });
}

export const newPasswordWithConfirmSchema = z
  .object({ password: newPasswordSchema, confirmPassword: z.string().nullish() })
  .superRefine(checkPasswordConfirmation);
export type NewPasswordValues = z.infer<typeof newPasswordWithConfirmSchema>;

export function validateNewPassword(values: {
  password: unknown;
  confirmPassword?: unknown;
}): FieldErrors<'password' | 'confirmPassword'> {
  return fieldErrors(newPasswordWithConfirmSchema, values);
}

/** The live checklist under the password field. */
export function passwordChecklist(password: string): {
  minLength: boolean;
  number: boolean;
  letter: boolean;
} {
  return {
    minLength: password.length >= PASSWORD_MIN_LENGTH,
    number: HAS_NUMBER.test(password),
    letter: HAS_LETTER.test(password),
  };
}

// No look-alikes (0/O, 1/l/I) since the password may be read out or copied by hand.
const PASSWORD_ALPHABET = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** n characters of the alphabet, uniformly (rejection sampling avoids the modulo bias). */
export function randomString(length: number, alphabet: string): string {
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  const bytes = new Uint8Array(length * 2);
  while (out.length < length) {
    crypto.getRandomValues(bytes);
    for (const b of bytes) {
      if (b < limit) out += alphabet[b % alphabet.length];
      if (out.length === length) break;
    }
  }
  return out;
}

/** A random 8-character password that satisfies the policy (used when none is given on create). */
export function generatePassword(): string {
  for (;;) {
    const candidate = randomString(GENERATED_PASSWORD_LENGTH, PASSWORD_ALPHABET);
    if (newPasswordSchema.safeParse(candidate).success) return candidate;
  }
}
