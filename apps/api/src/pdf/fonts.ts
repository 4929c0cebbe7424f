import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';

const require = createRequire(import.meta.url);

/**
 * The fonts every PDF of the portal writes with, embedded and subsetted by pdfkit (only the glyphs a document uses
 * go into it): Noto Sans for Latin, Greek and Cyrillic, Noto Sans SC for Chinese, Japanese kana and the CJK
 * ideographs, Noto Emoji (outlines) for emoji. All three are SIL Open Font License 1.1, from npm
 * (@expo-google-fonts/*), read from node_modules at run time: nothing is downloaded.
 */
export type FontRole = 'regular' | 'bold' | 'cjk' | 'emoji';

const FILES: Record<FontRole, string> = {
  regular: '@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf',
  bold: '@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf',
  cjk: '@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf',
  emoji: '@expo-google-fonts/noto-emoji/400Regular/NotoEmoji_400Regular.ttf',
};

interface LoadedFont {
  bytes: Buffer;
  /** Parsed once, to ask which code points the font has a glyph for. */
  coverage: { hasGlyphForCodePoint(codePoint: number): boolean };
}

const loaded = new Map<FontRole, LoadedFont>();

/** A font's bytes and coverage, read on first use and kept for the process (the CJK font is 10 MB). */
export function font(role: FontRole): LoadedFont {
  let entry = loaded.get(role);
  if (!entry) {
    const bytes = readFileSync(require.resolve(FILES[role]));
    const parsed = fontkit.create(bytes);
    if ('fonts' in parsed) throw new Error(`${FILES[role]} is a font collection, not a font`);
    entry = { bytes, coverage: parsed };
    loaded.set(role, entry);
  }
  return entry;
}

/** The fonts tried, in order, for a character a text's own font lacks. */
export const FALLBACKS: readonly FontRole[] = ['cjk', 'emoji'];
