/**
 * Splits a text into runs that one font each can draw: every character goes to the first font that has a glyph for
 * it (the text's own font first, then the fallbacks); spaces, joiners, variation selectors and combining marks stay
 * in the run they follow, so a word is not cut between fonts. A character no font has stays with the text's own
 * font (pdfkit draws its .notdef box: visible, never silently dropped). Control characters (NUL and the C0/C1
 * controls but tab and newline) and bidi controls are left out, and a lone surrogate becomes U+FFFD: hostile text
 * cannot reorder or hide what a PDF says (docs/decisions/0062-text-input.md).
 */
export interface TextRun<F extends string> {
  font: F;
  text: string;
}

const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

/** True for a code point that belongs to the character before it (it never starts a run of its own). */
function attaches(codePoint: number): boolean {
  return (
    codePoint === 0x20 ||
    codePoint === 0x200d || // zero-width joiner (emoji sequences)
    (codePoint >= 0xfe00 && codePoint <= 0xfe0f) || // variation selectors
    (codePoint >= 0x0300 && codePoint <= 0x036f) || // combining diacritical marks
    (codePoint >= 0x1f3fb && codePoint <= 0x1f3ff) // emoji skin tones
  );
}

/** The text a PDF may show: controls and bidi controls out, lone surrogates as U+FFFD. */
export function printableText(text: string): string {
  let out = '';
  for (const character of text) {
    const codePoint = character.codePointAt(0)!;
    if (character === '\n' || character === '\t') out += character;
    else if (codePoint >= 0xd800 && codePoint <= 0xdfff)
      out += '\ufffd'; // a lone surrogate
    else if (codePoint < 0x20 || (codePoint >= 0x7f && codePoint < 0xa0)) continue;
    else if (BIDI_CONTROLS.test(character)) continue;
    else out += character;
  }
  return out;
}

export function fontRuns<F extends string>(
  text: string,
  fonts: readonly F[],
  hasGlyph: (font: F, codePoint: number) => boolean,
): TextRun<F>[] {
  const own = fonts[0];
  if (own === undefined) throw new Error('fontRuns needs at least one font');
  const runs: TextRun<F>[] = [];
  for (const character of printableText(text)) {
    const codePoint = character.codePointAt(0)!;
    const last = runs[runs.length - 1];
    let chosen: F;
    if (last && attaches(codePoint)) chosen = last.font;
    else chosen = fonts.find((f) => hasGlyph(f, codePoint)) ?? own;
    if (last && last.font === chosen) last.text += character;
    else runs.push({ font: chosen, text: character });
  }
  return runs;
}
