import type { Pos } from './ast';

export type TokenKind =
  | 'number'
  | 'string'
  | 'name'
  | 'keyword'
  | 'operator'
  | 'punctuation'
  | 'comment'
  | 'whitespace'
  | 'invalid'
  | 'eof';

export interface Token {
  kind: TokenKind;
  /** Source text of the token. */
  text: string;
  /** Decoded value of a string literal, or the parsed number. */
  value?: string | number;
  start: Pos;
  /** Position just after the token. */
  end: Pos;
  /** Set on invalid tokens and unterminated literals. */
  error?: string;
}

/** C#-like keywords the language gives meaning to. */
export const KEYWORDS = [
  'var',
  'double',
  'int',
  'bool',
  'string',
  'if',
  'else',
  'return',
  'true',
  'false',
  'null',
] as const;
const KEYWORD_SET: ReadonlySet<string> = new Set(KEYWORDS);

// Longest first, so that '==' wins over '='.
const OPERATORS = [
  '==',
  '!=',
  '<=',
  '>=',
  '&&',
  '||',
  '??',
  '=>',
  '+=',
  '-=',
  '*=',
  '/=',
  '+',
  '-',
  '*',
  '/',
  '%',
  '<',
  '>',
  '!',
  '?',
  ':',
  '=',
];
const PUNCTUATION = '(){},;.';

const isDigit = (c: string) => c >= '0' && c <= '9';
const isNameStart = (c: string) => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_';
const isNamePart = (c: string) => isNameStart(c) || isDigit(c);

const ESCAPES: Record<string, string> = {
  '"': '"',
  "'": "'",
  '\\': '\\',
  n: '\n',
  t: '\t',
  r: '\r',
  '0': '\0',
};

/**
 * Scans the whole source into tokens, trivia (whitespace, comments) included, so that the
 * editor's highlighting and the parser see the same tokens. Never throws: bad input becomes
 * an 'invalid' token (or a literal with `error` set). Lines and characters are 1-based.
 */
export function scan(source: string): Token[] {
  const tokens: Token[] = [];
  let offset = 0;
  let line = 1;
  let lineStart = 0;
  const pos = (): Pos => ({ offset, line, character: offset - lineStart + 1 });
  // Moves over source[offset, to), keeping line numbers right.
  const advance = (to: number) => {
    while (offset < to) {
      if (source.charCodeAt(offset) === 10) {
        line++;
        lineStart = offset + 1;
      }
      offset++;
    }
  };
  const push = (kind: TokenKind, to: number, extra?: Partial<Token>) => {
    const start = pos();
    const text = source.slice(offset, to);
    advance(to);
    tokens.push({ kind, text, start, end: pos(), ...extra });
  };

  while (offset < source.length) {
    const c = source[offset]!;
    const next = source[offset + 1];
    if (
      c === ' ' ||
      c === '\t' ||
      c === '\n' ||
      c === '\r' ||
      c === '\f' ||
      c === '\v' ||
      c === '\u00a0' ||
      c === '\ufeff'
    ) {
      let to = offset + 1;
      while (to < source.length && /[ \t\n\r\f\v\u00a0\ufeff]/.test(source[to]!)) to++;
      push('whitespace', to);
    } else if (c === '/' && next === '/') {
      let to = source.indexOf('\n', offset);
      if (to < 0) to = source.length;
      push('comment', to);
    } else if (c === '/' && next === '*') {
      const close = source.indexOf('*/', offset + 2);
      if (close < 0) push('comment', source.length, { error: 'Unterminated comment' });
      else push('comment', close + 2);
    } else if (isDigit(c) || (c === '.' && next !== undefined && isDigit(next))) {
      let to = offset;
      while (to < source.length && isDigit(source[to]!)) to++;
      if (source[to] === '.' && isDigit(source[to + 1] ?? '')) {
        to++;
        while (to < source.length && isDigit(source[to]!)) to++;
      }
      if (
        (source[to] === 'e' || source[to] === 'E') &&
        (isDigit(source[to + 1] ?? '') ||
          ((source[to + 1] === '+' || source[to + 1] === '-') && isDigit(source[to + 2] ?? '')))
      ) {
        to += 2;
        while (to < source.length && isDigit(source[to]!)) to++;
      }
      const digitsEnd = to;
      // C# real-literal suffixes (1.5d, 2f, 3m) are accepted and ignored.
      if (/[dDfFmM]/.test(source[to] ?? '') && !isNamePart(source[to + 1] ?? '')) to++;
      if (to < source.length && isNamePart(source[to]!)) {
        while (to < source.length && isNamePart(source[to]!)) to++;
        push('invalid', to, { error: `Invalid number '${source.slice(offset, to)}'` });
      } else {
        const value = Number(source.slice(offset, digitsEnd));
        if (!Number.isFinite(value)) push('invalid', to, { error: 'Number is too large' });
        else push('number', to, { value });
      }
    } else if (isNameStart(c)) {
      let to = offset + 1;
      while (to < source.length && isNamePart(source[to]!)) to++;
      push(KEYWORD_SET.has(source.slice(offset, to)) ? 'keyword' : 'name', to);
    } else if (c === '"') {
      scanString();
    } else if (PUNCTUATION.includes(c)) {
      push('punctuation', offset + 1);
    } else {
      const op = OPERATORS.find((o) => source.startsWith(o, offset));
      if (op) push('operator', offset + op.length);
      else {
        const ch = String.fromCodePoint(source.codePointAt(offset)!);
        push('invalid', offset + ch.length, { error: `Unexpected character '${ch}'` });
      }
    }
  }
  tokens.push({ kind: 'eof', text: '', start: pos(), end: pos() });
  return tokens;

  function scanString() {
    let to = offset + 1;
    let value = '';
    let error: string | undefined;
    for (;;) {
      const ch = source[to];
      if (ch === undefined || ch === '\n' || ch === '\r') {
        error = 'Unterminated string literal';
        break;
      }
      if (ch === '"') {
        to++;
        break;
      }
      if (ch === '\\') {
        const e = source[to + 1];
        if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(source.slice(to + 2, to + 6))) {
          value += String.fromCharCode(parseInt(source.slice(to + 2, to + 6), 16));
          to += 6;
        } else if (e !== undefined && Object.hasOwn(ESCAPES, e)) {
          value += ESCAPES[e];
          to += 2;
        } else {
          error ??= `Unrecognized escape sequence '\\${e ?? ''}'`;
          to += e === undefined ? 1 : 2;
        }
        continue;
      }
      value += ch;
      to++;
    }
    push('string', to, { value, ...(error ? { error } : {}) });
  }
}
