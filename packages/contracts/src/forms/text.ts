import { z } from 'zod';

/**
 * The one rule for text a user types (docs/decisions/0062-text-input.md). Every text field of every request
 * schema is built from `userText` (free text: stored exactly as written) or `nameText` (names: trimmed, and
 * refused when they could deceive a reader).
 *
 * Any text: no NUL character (PostgreSQL cannot store it) and no lone UTF-16 surrogate (not a character at all:
 * it would be stored as U+FFFD, so what is stored would differ from what was sent).
 * Names (ship, organization, user, data source, channel, message title) also: no control characters, no bidi
 * embedding, override or isolate characters (they reorder what is shown around them: a name that reads as
 * another), and not only invisible characters (zero-width, format, whitespace).
 */
export const TEXT_MESSAGES = {
  nul: 'Cannot contain the NUL character',
  loneSurrogate: 'Cannot contain a broken character (a lone surrogate)',
  control: 'Cannot contain control characters such as line breaks or tabs',
  bidi: 'Cannot contain characters that change the text direction',
  invisible: 'Must contain a visible character',
  hidden: 'Cannot contain invisible characters',
} as const;

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** C0 and C1 controls and DEL, and the line and paragraph separators (line breaks too). */
const CONTROL = /[\p{Cc}\u2028\u2029]/u;
/** Embeddings and overrides (LRE, RLE, PDF, LRO, RLO) and isolates (LRI, RLI, FSI, PDI). */
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/;
/** Characters that show nothing on their own: whitespace, format (zero-width, bidi marks), default-ignorable, braille blank. */
const INVISIBLE_ONLY = /^[\p{White_Space}\p{Cf}\p{Cc}\p{Default_Ignorable_Code_Point}\u2800]*$/u;

/**
 * Characters an identifier may not hold anywhere: format characters (zero-width space and joiners, bidi marks),
 * default-ignorable code points, the braille blank, and whitespace other than the plain space (no-break and
 * ideographic spaces): inside a username they make a second name that looks like the first.
 */
const HIDDEN = /[\p{Cf}\p{Default_Ignorable_Code_Point}\u2800]|(?! )\p{White_Space}/u;

export const hasNul = (value: string) => value.includes('\u0000');
export const hasLoneSurrogate = (value: string) => LONE_SURROGATE.test(value);
export const hasControlCharacter = (value: string) => CONTROL.test(value);
export const hasBidiControl = (value: string) => BIDI_CONTROL.test(value);
/** Non-empty and nothing a reader would see. The empty text is the required rule's business. */
export const isInvisibleOnly = (value: string) => value !== '' && INVISIBLE_ONLY.test(value);

/** What is wrong with a free text (message text, note, description, comment, ...), or null. */
export function textProblem(value: string): string | null {
  if (hasNul(value)) return TEXT_MESSAGES.nul;
  if (hasLoneSurrogate(value)) return TEXT_MESSAGES.loneSurrogate;
  return null;
}

/** What is wrong with a name, or null. Expects the trimmed name. */
export function nameProblem(value: string): string | null {
  return (
    textProblem(value) ??
    (hasBidiControl(value)
      ? TEXT_MESSAGES.bidi
      : hasControlCharacter(value)
        ? TEXT_MESSAGES.control
        : isInvisibleOnly(value)
          ? TEXT_MESSAGES.invisible
          : null)
  );
}

/**
 * What is wrong with an identifier (a username), or null: a name's problems, and any invisible character inside
 * it (Unicode TR39's restriction for identifiers; look-alike names are refused by the API against the existing
 * ones, by their confusable skeleton).
 */
export function identifierProblem(value: string): string | null {
  return nameProblem(value) ?? (HIDDEN.test(value) ? TEXT_MESSAGES.hidden : null);
}

const check = (problem: (value: string) => string | null) => (value: string, ctx: z.RefinementCtx) => {
  const message = problem(value);
  if (message) ctx.addIssue({ code: 'custom', message });
};
/** The text rule as a refinement, for string schemas with rules of their own (passwords, patterns). */
export const textCheck = check(textProblem);
/** The name rule as a refinement (expects the value trimmed). */
export const nameCheck = check(nameProblem);

/** The identifier rule as a refinement (expects the value trimmed). */
export const identifierCheck = check(identifierProblem);

/** Free text, stored exactly as written: only NUL and lone surrogates are refused. */
export const userText = (options: { error?: string } = {}) =>
  z.string(options.error ? { error: options.error } : undefined).superRefine(textCheck);

/** A name: trimmed, required (with `requiredMessage`), at most `max` characters, and refused by `nameProblem`. */
export const nameText = (requiredMessage: string, max = 200) =>
  z
    .string({ error: requiredMessage })
    .trim()
    .min(1, requiredMessage)
    .max(max, `Cannot be longer than ${max} characters`)
    .superRefine(nameCheck);

/** An identifier (a username): a required name without invisible characters inside ({@link identifierProblem}). */
export const identifierText = (requiredMessage: string, max = 200) =>
  z
    .string({ error: requiredMessage })
    .trim()
    .min(1, requiredMessage)
    .max(max, `Cannot be longer than ${max} characters`)
    .superRefine(identifierCheck);

/** A name that may be left empty (a message title): trimmed, and refused by `nameProblem` when given. */
export const optionalNameText = (max = 200) =>
  z.string().trim().max(max, `Cannot be longer than ${max} characters`).superRefine(nameCheck);

/**
 * The first text anywhere in a parsed request (strings, object keys, nested arrays) that no text may hold
 * (NUL, lone surrogate), with its path; null when there is none. The API's backstop for what no schema checks
 * as text (ids, keys): such a value never reaches the database.
 */
export function findForbiddenText(
  value: unknown,
  path: string[] = [],
): { path: string; message: string } | null {
  if (typeof value === 'string') {
    const message = textProblem(value);
    return message ? { path: path.join('.'), message } : null;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findForbiddenText(value[i], [...path, String(i)]);
      if (found) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object' && !ArrayBuffer.isView(value)) {
    for (const [key, item] of Object.entries(value)) {
      const keyProblem = textProblem(key);
      if (keyProblem) return { path: path.join('.'), message: keyProblem };
      const found = findForbiddenText(item, [...path, key]);
      if (found) return found;
    }
  }
  return null;
}
