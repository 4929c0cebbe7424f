import type { AssignOp, BinaryOp, DeclaredType, Expr, Pos, Program, Stmt } from './ast';
import { errorAt, type FormulaError } from './errors';
import { scan, type Token } from './lexer';

/** Longer algorithms are refused before scanning. */
export const MAX_SOURCE_LENGTH = 200_000;
/** Deepest nesting of expressions and statements; keeps every later recursive pass far from the stack limit. */
export const MAX_NESTING = 256;

const DECLARED_TYPES: ReadonlySet<string> = new Set(['var', 'double', 'int', 'bool', 'string']);
const ASSIGN_OPS: ReadonlySet<string> = new Set(['=', '+=', '-=', '*=', '/=']);

// Binding powers, C# precedence from loosest to tightest; '??' is right-associative.
const BINARY_POWER: Record<string, number> = {
  '??': 1,
  '||': 2,
  '&&': 3,
  '==': 4,
  '!=': 4,
  '<': 5,
  '<=': 5,
  '>': 5,
  '>=': 5,
  '+': 6,
  '-': 6,
  '*': 7,
  '/': 7,
  '%': 7,
};

class ParseFailure {
  constructor(readonly error: FormulaError) {}
}

export type ParseResult = { ok: true; program: Program } | { ok: false; errors: FormulaError[] };

/** Recursive descent for statements, Pratt parsing for expressions. Stops at the first syntax error. */
export function parse(source: string): ParseResult {
  if (source.length > MAX_SOURCE_LENGTH) {
    return {
      ok: false,
      errors: [
        {
          message: `Algorithm is too long (${source.length} characters; at most ${MAX_SOURCE_LENGTH} are allowed)`,
          startLine: 1,
          startCharacter: 1,
        },
      ],
    };
  }
  const all = scan(source);
  const lexErrors = all.filter((t) => t.error).map((t) => errorAt(t.start, t.error!));
  if (lexErrors.length > 0) return { ok: false, errors: lexErrors };
  const parser = new Parser(all.filter((t) => t.kind !== 'whitespace' && t.kind !== 'comment'));
  try {
    return { ok: true, program: parser.program() };
  } catch (e) {
    if (e instanceof ParseFailure) return { ok: false, errors: [e.error] };
    throw e;
  }
}

class Parser {
  private i = 0;
  private depth = 0;
  /** Height of each expression subtree, to refuse long left-leaning chains such as 1+1+1+... */
  private heights = new WeakMap<Expr, number>();

  constructor(private readonly tokens: Token[]) {}

  program(): Program {
    const body: Stmt[] = [];
    while (this.peek().kind !== 'eof') body.push(this.statement());
    const last = this.tokens[this.tokens.length - 2];
    return { body, end: last ? last.end : this.peek().start };
  }

  // ---- statements

  private statement(): Stmt {
    this.enter();
    try {
      return this.statementInner();
    } finally {
      this.depth--;
    }
  }

  private statementInner(): Stmt {
    const t = this.peek();
    if (t.text === '{' && t.kind === 'punctuation') {
      this.i++;
      const body: Stmt[] = [];
      while (!this.is('punctuation', '}')) {
        if (this.peek().kind === 'eof') this.failAfterPrevious("Expected '}'");
        body.push(this.statement());
      }
      this.i++;
      return { kind: 'block', body, pos: t.start };
    }
    if (this.is('punctuation', ';')) {
      this.i++;
      return { kind: 'empty', pos: t.start };
    }
    if (t.kind === 'keyword') {
      if (t.text === 'if') return this.ifStatement();
      if (t.text === 'else') this.fail(t.start, "Unexpected 'else' without a matching 'if'");
      if (t.text === 'return') {
        this.i++;
        if (this.is('punctuation', ';')) {
          this.i++;
          return { kind: 'return', value: null, pos: t.start };
        }
        const value = this.expression();
        this.expect(';');
        return { kind: 'return', value, pos: t.start };
      }
      if (DECLARED_TYPES.has(t.text) && !(this.peek(1).text === '.')) return this.declaration();
    }
    if (t.kind === 'name' && this.peek(1).kind === 'operator' && ASSIGN_OPS.has(this.peek(1).text)) {
      const op = this.peek(1).text as AssignOp;
      this.i += 2;
      const value = this.expression();
      this.expect(';');
      return { kind: 'assign', name: t.text, op, value, pos: t.start };
    }
    // Parse the expression only to report what follows it precisely.
    this.expression();
    if (this.peek().kind === 'operator' && ASSIGN_OPS.has(this.peek().text)) {
      this.fail(t.start, 'The left-hand side of an assignment must be a variable');
    }
    this.fail(t.start, 'Only declarations, assignments, if and return can be used as a statement');
  }

  private declaration(): Stmt {
    const typeToken = this.next();
    const nameToken = this.peek();
    if (nameToken.kind === 'keyword')
      this.fail(nameToken.start, `'${nameToken.text}' is a keyword and cannot be used as a name`);
    if (nameToken.kind !== 'name') this.failAfterPrevious('Expected a variable name');
    this.i++;
    let init: Expr | null = null;
    if (this.is('operator', '=')) {
      this.i++;
      init = this.expression();
    }
    this.expect(';');
    return {
      kind: 'declare',
      declaredType: typeToken.text as DeclaredType,
      name: nameToken.text,
      init,
      pos: typeToken.start,
      namePos: nameToken.start,
    };
  }

  private ifStatement(): Stmt {
    const ifToken = this.next();
    this.expect('(');
    const test = this.expression();
    this.expect(')');
    const then = this.embedded();
    let otherwise: Stmt | null = null;
    if (this.is('keyword', 'else')) {
      this.i++;
      otherwise = this.embedded();
    }
    return { kind: 'if', test, then, otherwise, pos: ifToken.start };
  }

  private embedded(): Stmt {
    const t = this.peek();
    if (t.kind === 'keyword' && DECLARED_TYPES.has(t.text) && this.peek(1).text !== '.') {
      this.fail(t.start, 'A declaration cannot be the whole body of an if or else; put it in a block { }');
    }
    if (t.kind === 'eof') this.failAfterPrevious('Expected a statement');
    return this.statement();
  }

  // ---- expressions

  expression(): Expr {
    this.enter();
    try {
      const test = this.binary(0);
      if (!this.is('operator', '?')) return test;
      const q = this.next();
      const then = this.expression();
      this.expect(':');
      const otherwise = this.expression();
      return this.node({ kind: 'conditional', test, then, otherwise, pos: q.start }, test, then, otherwise);
    } finally {
      this.depth--;
    }
  }

  private binary(minPower: number): Expr {
    let left = this.unary();
    for (;;) {
      const t = this.peek();
      const power = t.kind === 'operator' ? BINARY_POWER[t.text] : undefined;
      if (power === undefined || power <= minPower) return left;
      this.i++;
      // Right-associative '??' parses its right side at one power lower.
      const right = t.text === '??' ? this.binaryNested(power - 1) : this.binaryNested(power);
      left = this.node({ kind: 'binary', op: t.text as BinaryOp, left, right, pos: t.start }, left, right);
    }
  }

  private binaryNested(minPower: number): Expr {
    this.enter();
    try {
      return this.binary(minPower);
    } finally {
      this.depth--;
    }
  }

  private unary(): Expr {
    const t = this.peek();
    if (t.kind === 'operator' && (t.text === '-' || t.text === '!' || t.text === '+')) {
      this.i++;
      this.enter();
      try {
        const operand = this.unary();
        return this.node({ kind: 'unary', op: t.text, operand, pos: t.start }, operand);
      } finally {
        this.depth--;
      }
    }
    return this.postfix(this.primary());
  }

  private postfix(expr: Expr): Expr {
    for (;;) {
      if (this.is('punctuation', '.')) {
        this.i++;
        const name = this.peek();
        if (name.kind !== 'name') this.failAfterPrevious("Expected a member name after '.'");
        this.i++;
        expr = this.node(
          { kind: 'member', object: expr, name: name.text, namePos: name.start, pos: expr.pos },
          expr,
        );
      } else if (this.is('punctuation', '(')) {
        this.i++;
        const args: Expr[] = [];
        if (!this.is('punctuation', ')')) {
          for (;;) {
            args.push(this.argument());
            if (this.is('punctuation', ',')) {
              this.i++;
              continue;
            }
            break;
          }
        }
        this.expect(')');
        expr = this.node({ kind: 'call', callee: expr, args, pos: expr.pos }, expr, ...args);
      } else {
        return expr;
      }
    }
  }

  /** A call argument: an expression or a lambda `v => ...` / `(v) => ...`. */
  private argument(): Expr {
    return this.expression();
  }

  private primary(): Expr {
    const t = this.peek();
    switch (t.kind) {
      case 'number':
        this.i++;
        return { kind: 'number', value: t.value as number, pos: t.start };
      case 'string':
        this.i++;
        return { kind: 'string', value: t.value as string, pos: t.start };
      case 'name':
        if (this.peek(1).text === '=>' && this.peek(1).kind === 'operator') return this.lambda(t, 2);
        this.i++;
        return { kind: 'name', name: t.text, pos: t.start };
      case 'keyword':
        if (t.text === 'true' || t.text === 'false') {
          this.i++;
          return { kind: 'bool', value: t.text === 'true', pos: t.start };
        }
        if (t.text === 'null') {
          this.i++;
          return { kind: 'null', pos: t.start };
        }
        if (DECLARED_TYPES.has(t.text) && t.text !== 'var' && this.peek(1).text === '.') {
          this.i++;
          return { kind: 'typeName', name: t.text as DeclaredType, pos: t.start };
        }
        this.fail(t.start, `Unexpected keyword '${t.text}'; expected an expression`);
        break;
      case 'punctuation':
        if (t.text === '(') {
          if (this.peek(1).kind === 'name' && this.peek(2).text === ')' && this.peek(3).text === '=>')
            return this.lambda(this.peek(1), 4);
          this.i++;
          const inner = this.expression();
          this.expect(')');
          return inner;
        }
        break;
      case 'eof':
        this.failAfterPrevious('Expected an expression');
    }
    this.fail(t.start, `Unexpected '${t.text}'; expected an expression`);
  }

  private lambda(param: Token, tokensBeforeBody: number): Expr {
    const start = this.peek().start;
    this.i += tokensBeforeBody;
    const body = this.expression();
    return this.node({ kind: 'lambda', param: param.text, body, pos: start }, body);
  }

  // ---- helpers

  private node(e: Expr, ...children: Expr[]): Expr {
    let h = 0;
    for (const c of children) h = Math.max(h, this.heights.get(c) ?? 1);
    if (h + 1 > MAX_NESTING)
      this.fail(e.pos, `Expression is too deeply nested (more than ${MAX_NESTING} levels)`);
    this.heights.set(e, h + 1);
    return e;
  }

  private enter() {
    if (++this.depth > MAX_NESTING)
      this.fail(this.peek().start, `Algorithm is too deeply nested (more than ${MAX_NESTING} levels)`);
  }

  // The token list always ends with 'eof' (see scan), so the clamped index is in range.
  private peek(ahead = 0): Token {
    return this.tokens[Math.min(this.i + ahead, this.tokens.length - 1)]!;
  }

  private next(): Token {
    const token = this.peek();
    this.i++;
    return token;
  }

  private is(kind: Token['kind'], text: string): boolean {
    const t = this.peek();
    return t.kind === kind && t.text === text;
  }

  private expect(text: string): Token {
    const t = this.peek();
    if (t.text !== text || t.kind === 'string') this.failAfterPrevious(`Expected '${text}'`);
    this.i++;
    return t;
  }

  /** A missing token is reported where it belongs: just after the previous token (as C# does). */
  private failAfterPrevious(message: string): never {
    const previous = this.i > 0 ? this.tokens[this.i - 1] : undefined;
    this.fail(previous ? previous.end : this.peek().start, message);
  }

  private fail(pos: Pos, message: string): never {
    throw new ParseFailure(errorAt(pos, message));
  }
}
