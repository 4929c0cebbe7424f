import { describe, expect, it } from 'vitest';
import { fontRuns, printableText } from './runs';

// A toy coverage: 'latin' has ASCII and Latin Extended, 'cjk' the CJK ideographs, 'emoji' the emoji block.
const has = (font: 'latin' | 'cjk' | 'emoji', cp: number) =>
  font === 'latin'
    ? cp < 0x0250
    : font === 'cjk'
      ? (cp >= 0x4e00 && cp <= 0x9fff) || cp === 0x20
      : cp >= 0x1f300 && cp <= 0x1faff;
const fonts = ['latin', 'cjk', 'emoji'] as const;

describe('fontRuns', () => {
  it('keeps a text its own font can draw in one run', () => {
    expect(fontRuns('Łódź Şebnem', fonts, has)).toEqual([{ font: 'latin', text: 'Łódź Şebnem' }]);
  });

  it('switches to the first fallback that has a character, and back', () => {
    expect(fontRuns('Port 上海 (CN) 🚢!', fonts, has)).toEqual([
      { font: 'latin', text: 'Port ' },
      { font: 'cjk', text: '上海 ' },
      { font: 'latin', text: '(CN) ' },
      { font: 'emoji', text: '🚢' },
      { font: 'latin', text: '!' },
    ]);
  });

  it('keeps a character no font has in the own font (drawn as a box, never dropped)', () => {
    expect(fontRuns('a\u0e01b', fonts, has)).toEqual([{ font: 'latin', text: 'a\u0e01b' }]);
  });

  it('keeps joiners, variation selectors and skin tones with the emoji they belong to', () => {
    const family = '👩\u200d👩\u200d👧';
    expect(fontRuns(`x${family}\ufe0f`, fonts, has)).toEqual([
      { font: 'latin', text: 'x' },
      { font: 'emoji', text: `${family}\ufe0f` },
    ]);
  });
});

describe('printableText', () => {
  it('leaves out NUL, controls and bidi controls, and replaces a lone surrogate', () => {
    expect(printableText('a\u0000b\u202ec\u2066d\ud800e\u0085f\nline\tcell')).toBe(
      'abcd\ufffdef\nline\tcell',
    );
  });
});
