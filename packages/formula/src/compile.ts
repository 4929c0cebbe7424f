import type { CExpr, CheckedProgram, CLambda, ConstantName, CStmt, SeriesMethod } from './ast';
import type { CalculationKind, OutputType } from './check';
import { FormulaRuntimeError } from './errors';
import { scalarHelpers } from './runtime/functions';
import { seriesHelpers } from './runtime/series';

// Code generation from the checked tree. Everything written into the generated text is one
// of the generator's own tokens: fixed keywords and punctuation, numbered slots (in0, l0,
// p0, t0, ...), helper aliases from the HELPERS table, number literals printed by String()
// and string literals printed by JSON.stringify. No name from the user's text is emitted.

export const HELPERS = Object.freeze({ ...scalarHelpers, ...seriesHelpers });
export type HelperName = keyof typeof HELPERS;

const CONSTANT_SLOTS: Record<ConstantName, string> = {
  TARGETTIMESTAMP: 'tt',
  ISECAZONE: 'ez',
  ISNODISCHARGEZONE: 'nz',
  Facility_IMO: 'k0',
  Facility_NumberOfScrubbers: 'k1',
  Facility_ScrubberSystemType: 'k2',
  Facility_TotalEffectKW: 'k3',
};

const SERIES_HELPER: Record<SeriesMethod, HelperName> = {
  Average: 'avg',
  Sum: 'sum',
  Min: 'smin',
  Max: 'smax',
  Count: 'count',
  First: 'first',
  Last: 'last',
  Where: 'where',
  Select: 'select',
  Any: 'any',
  All: 'all',
};

const MATH_HELPER = {
  Abs: 'abs',
  Min: 'min',
  Max: 'max',
  Pow: 'pow',
  Sqrt: 'sqrt',
  Floor: 'floor',
  Ceiling: 'ceil',
  Exp: 'exp',
} as const;

/** Rows between two looks at the clock in a measurement-field run. */
export const ROWS_PER_BUDGET_CHECK = 4096;

/** How a returned value is stored. */
function outputConversion(
  program: CheckedProgram,
  outputType: OutputType | undefined,
  r: string,
  helper: (h: HelperName) => string,
): string {
  if (outputType === 'Boolean' && program.returnType !== 'boolean') return `${helper('bool')}(${r})`;
  if (outputType === 'Integer') return `${helper('trunc')}(${r})`;
  return r;
}

class Emitter {
  readonly helpers = new Set<HelperName>();
  /** Temporaries of the function being emitted; lambdas get their own. */
  private temps: string[][] = [[]];
  private tempCount = 0;
  /** AVERAGE_OVER windows met in the body: each becomes a column computed before the row loop. */
  readonly windows: { expr: string; ms: number }[] = [];
  /** Windows met in the statement being emitted, whose means it sums first. */
  private pendingMeans: number[] = [];
  /**
   * Boolean locals no value set to is ever null (comparisons and such): held as JavaScript booleans, not as 1/0/NaN
   * numbers, so a test of one is a test of a boolean (a number's truth takes two comparisons; WASHWATER_COMPLIANT's
   * `pahMet` cost it a tenth of its speed).
   */
  plainBooleans: ReadonlySet<number> = new Set();

  /** Looks at the whole program before emitting it: which boolean locals are plain. */
  plan(program: CheckedProgram): void {
    const sets = new Map<number, CExpr[]>();
    const walk = (stmts: CStmt[]) => {
      for (const s of stmts) {
        if (s.k === 'set') sets.set(s.id, [...(sets.get(s.id) ?? []), s.value]);
        if (s.k === 'if') {
          walk(s.then);
          walk(s.otherwise);
        }
      }
    };
    walk(program.body);
    // Every boolean local to begin with, then those with a value that may be null taken out until none is left:
    // each value set to a plain local is then never null, given that the plain locals it reads are never null.
    const plain = new Set([...sets.keys()].filter((id) => program.locals[id] === 'boolean'));
    for (let changed = true; changed;) {
      changed = false;
      for (const id of plain) {
        if (sets.get(id)!.every((v) => neverNull(v, plain))) continue;
        plain.delete(id);
        changed = true;
      }
    }
    this.plainBooleans = plain;
  }

  /** A JavaScript boolean that is true exactly when the never-null value is true (for a plain boolean local). */
  private boolean(e: CExpr): string {
    return producesBoolean(e, this.plainBooleans) ? this.cond(e) : `(${this.cond(e)} ? true : false)`;
  }

  h(name: HelperName): string {
    this.helpers.add(name);
    return `h_${name}`;
  }

  // temps starts with the top level's list and lambdas push and pop their own, so it is never empty.
  private temp(): string {
    const t = `t${this.tempCount++}`;
    this.temps[this.temps.length - 1]!.push(t);
    return t;
  }

  topTemps(): string[] {
    return this.temps[0]!;
  }

  /**
   * A measurement run's row values (an input, the zones, the time) and how each is read at row i; a statement loads
   * the ones it reads that no statement before it on its path has loaded, so a row that returns early reads no
   * column it does not need (as a hand-written loop reads them). Empty for a report run, which loads its spans'
   * inputs up front.
   */
  rowLoads = new Map<string, string>();

  /** `loaded`: the row values loaded on the path to these statements (a measurement run's). */
  statements(stmts: CStmt[], indent: string, loaded = new Set<string>()): string {
    return stmts
      .map((s, k) => (this.needless(s, stmts.slice(k + 1)) ? '' : this.statement(s, indent, loaded)))
      .join('');
  }

  /**
   * `if (X == null) return null;` followed by nothing but a `return` whose value is null whenever X is (arithmetic
   * on X): the test changes no result, only costs a branch per row that a hand-written loop does not have, and one
   * the processor mispredicts at every scattered gap in the data (RATIO_MARGIN).
   */
  private needless(s: CStmt, rest: CStmt[]): boolean {
    if (s.k !== 'if' || s.otherwise.length > 0 || s.then.length !== 1) return false;
    const [then] = s.then;
    const [next, ...more] = rest;
    if (then?.k !== 'return' || then.value.k !== 'null' || next?.k !== 'return' || more.length > 0)
      return false;
    const tested = nullTests(s.test);
    return tested !== null && tested.every((x) => nullWith(next.value, x));
  }

  /** The loads of the row values `text` reads that are not loaded yet on this path. */
  private loadsFor(text: string, indent: string, loaded: Set<string>): string {
    let loads = '';
    for (const [name, load] of this.rowLoads) {
      if (loaded.has(name) || !new RegExp(`\\b${name}\\b`).test(text)) continue;
      loaded.add(name);
      loads += `${indent}${load}\n`;
    }
    return loads;
  }

  private statement(s: CStmt, indent: string, loaded: Set<string>): string {
    switch (s.k) {
      case 'set': {
        const v = this.plainBooleans.has(s.id) ? this.boolean(s.value) : this.value(s.value);
        const before = this.loadsFor(v, indent, loaded) + this.means(indent);
        return `${before}${indent}l${s.id} = ${s.truncate ? `${this.h('trunc')}(${v})` : v};\n`;
      }
      case 'if': {
        const test = this.cond(s.test);
        const before = this.loadsFor(test, indent, loaded) + this.means(indent);
        const branch = (stmts: CStmt[]) => this.statements(stmts, indent + '  ', new Set(loaded));
        let text = `${before}${indent}if (${test}) {\n${branch(s.then)}${indent}}`;
        if (s.otherwise.length > 0) text += ` else {\n${branch(s.otherwise)}${indent}}`;
        return text + '\n';
      }
      case 'return': {
        const v = this.value(s.value);
        const before = this.loadsFor(v, indent, loaded) + this.means(indent);
        return `${before}${indent}r = ${v};\n${indent}break b;\n`;
      }
    }
  }

  /**
   * The means of the AVERAGE_OVER windows the statement being emitted reads, summed just before it: a row that
   * returns before the statement sums no window. Plain statements in the row loop, not a helper call: a call
   * returns its double boxed unless V8 inlines it, and then every row allocated (WASHWATER_TURBIDITY_ABOVE_INLET ran
   * at a third of its hand-written loop's speed in bench/formula). The sum goes over the rows of the window in time
   * order, afresh per row, so a value depends only on the samples in its window, never on how much history came
   * before it: the same data uploaded from another start gives the same bits (a running sum would carry the
   * rounding of every row it has seen).
   */
  private means(indent: string): string {
    const text = this.pendingMeans
      .map(
        (k) =>
          `${indent}{ let ws = 0, wn = 0; for (let wk = w${k}; wk <= i; wk++) { const wv = v${k}[wk]; if (wv === wv) { ws += wv; wn++; } } m${k} = wn === 0 ? NaN : ws / wn; }\n`,
      )
      .join('');
    this.pendingMeans = [];
    return text;
  }

  /** A JavaScript expression whose value is the language value (NaN or null for null). */
  value(e: CExpr): string {
    switch (e.k) {
      case 'num':
        return numberLiteral(e.value);
      case 'str':
        return JSON.stringify(e.value);
      case 'null':
        return e.type === 'string' || e.type === 'series' ? 'null' : 'NaN';
      case 'input':
        return `in${e.slot}`;
      case 'local':
        return this.plainBooleans.has(e.id) ? `(l${e.id} ? 1 : 0)` : `l${e.id}`;
      case 'param':
        return `p${e.id}`;
      case 'const':
        // ISECAZONE holds the raw column byte: 0 false, 1 true, anything else unknown (null).
        if (e.name === 'ISECAZONE') return '(ez < 2 ? ez : NaN)';
        if (e.name === 'ISNODISCHARGEZONE') return '(nz < 2 ? nz : NaN)';
        return CONSTANT_SLOTS[e.name];
      case 'neg':
        return `(-${this.value(e.e)})`;
      case 'not':
        return `${this.h('not')}(${this.value(e.e)})`;
      case 'arith':
        return `(${this.value(e.l)} ${e.op} ${this.value(e.r)})`;
      case 'concat':
        return `${this.h('concat')}(${this.stringOf(e.l)}, ${this.stringOf(e.r)})`;
      case 'cmp':
      case 'eq':
      case 'isNull':
      case 'isNaN':
        return `(${this.cond(e)} ? 1 : 0)`;
      case 'and': {
        if (neverNull(e.l, this.plainBooleans) && neverNull(e.r, this.plainBooleans))
          return `((${this.cond(e.l)} && ${this.cond(e.r)}) ? 1 : 0)`;
        // Three-valued, as C# bool? with &: false wins over null. Written out rather than a helper call, whose
        // result V8 boxes unless it inlines the call (bench/formula: OPEN_LOOP_IN_NO_DISCHARGE_ZONE).
        const t = this.temp();
        const u = this.temp();
        return `((${t} = ${this.value(e.l)}) === 0 || (${u} = ${this.value(e.r)}) === 0 ? 0 : ${t} !== ${t} || ${u} !== ${u} ? NaN : 1)`;
      }
      case 'or': {
        if (neverNull(e.l, this.plainBooleans) && neverNull(e.r, this.plainBooleans))
          return `((${this.cond(e.l)} || ${this.cond(e.r)}) ? 1 : 0)`;
        // Three-valued, as C# bool? with |: true wins over null (written out, as and).
        const t = this.temp();
        const u = this.temp();
        return `(((${t} = ${this.value(e.l)}) !== 0 && ${t} === ${t}) || ((${u} = ${this.value(e.r)}) !== 0 && ${u} === ${u}) ? 1 : ${t} !== ${t} || ${u} !== ${u} ? NaN : 0)`;
      }
      case 'cond':
        return `(${this.cond(e.test)} ? ${this.value(e.then)} : ${this.value(e.otherwise)})`;
      case 'coalesce': {
        const left = this.value(e.l);
        const nullable = e.type === 'string';
        const simple = isSlot(e.l);
        const t = simple ? left : this.temp();
        const bind = simple ? left : `(${t} = ${left})`;
        return nullable
          ? `(${bind} !== null ? ${t} : ${this.value(e.r)})`
          : `(${bind} === ${t} ? ${t} : ${this.value(e.r)})`;
      }
      case 'math': {
        const args = e.args.map((a) => this.value(a));
        if (e.fn === 'Round')
          return args.length === 1
            ? `${this.h('round')}(${args[0]})`
            : `${this.h('round2')}(${args.join(', ')})`;
        if (e.fn === 'Log')
          return args.length === 1 ? `${this.h('log')}(${args[0]})` : `${this.h('log2')}(${args.join(', ')})`;
        return `${this.h(MATH_HELPER[e.fn])}(${args.join(', ')})`;
      }
      case 'date': {
        const member = (
          {
            Year: 'year',
            Month: 'month',
            Day: 'day',
            Hour: 'hour',
            Minute: 'minute',
            Second: 'second',
            DayOfWeek: 'dayOfWeek',
          } as const
        )[e.member];
        return `${this.h(member)}(${this.value(e.e)})`;
      }
      case 'window': {
        // The window's values are a column computed before the row loop (v<k>), its first row a pointer moved by
        // every row (w<k>); its mean (m<k>) is summed before the statement that reads it (means).
        const k = this.windows.length;
        this.windows.push({ expr: this.value(e.e), ms: e.seconds * 1000 });
        this.pendingMeans.push(k);
        return `m${k}`;
      }
      case 'series': {
        const args = ['S', this.value(e.target)];
        if (e.lambda)
          args.push(
            this.lambda(
              e.lambda,
              e.method === 'Select' || ['Average', 'Sum', 'Min', 'Max'].includes(e.method),
            ),
          );
        return `${this.h(SERIES_HELPER[e.method])}(${args.join(', ')})`;
      }
    }
  }

  /** A JavaScript expression that is truthy exactly when the value is true (null counts as false). */
  cond(e: CExpr): string {
    switch (e.k) {
      case 'cmp':
        return `(${this.value(e.l)} ${e.op} ${this.value(e.r)})`;
      case 'eq': {
        const l = this.value(e.l);
        const r = this.value(e.r);
        const op = e.negate ? '!==' : '===';
        if (e.l.type === 'string' || e.r.type === 'string' || e.l.k === 'num' || e.r.k === 'num')
          return `(${l} ${op} ${r})`;
        return `${e.negate ? '!' : ''}${this.h('eq')}(${l}, ${r})`;
      }
      case 'isNull': {
        const v = this.value(e.e);
        if (e.e.type === 'string') return `(${v} ${e.negate ? '!==' : '==='} null)`;
        if (isSlot(e.e)) return `(${v} ${e.negate ? '===' : '!=='} ${v})`;
        return `${e.negate ? '!' : ''}${this.h('nan')}(${v})`;
      }
      case 'isNaN':
        return `${this.h('nan')}(${this.value(e.e)})`;
      case 'and':
        return `(${this.cond(e.l)} && ${this.cond(e.r)})`;
      case 'or':
        return `(${this.cond(e.l)} || ${this.cond(e.r)})`;
      case 'not':
        return `(${this.value(e.e)} === 0)`;
      case 'num':
        return e.value !== 0 && e.value === e.value ? 'true' : 'false';
      case 'const':
        if (e.name === 'ISECAZONE') return '(ez === 1)';
        if (e.name === 'ISNODISCHARGEZONE') return '(nz === 1)';
        return this.value(e);
      case 'local':
        return this.plainBooleans.has(e.id) ? `l${e.id}` : this.value(e);
      default:
        // NaN and 0 are falsy in JavaScript, every other number truthy: just what a condition needs.
        return this.value(e);
    }
  }

  private stringOf(e: CExpr): string {
    const v = this.value(e);
    if (e.type === 'string') return `${this.h('str')}(${v})`;
    if (e.type === 'boolean') return `${this.h('boolStr')}(${v})`;
    return `${this.h('numStr')}(${v})`;
  }

  private lambda(l: CLambda, selector: boolean): string {
    this.temps.push([]);
    const body = selector ? this.value(l.body) : this.cond(l.body);
    const temps = this.temps.pop()!;
    if (temps.length === 0) return `((p${l.param}) => ${body})`;
    return `((p${l.param}) => { let ${temps.map((t) => `${t} = NaN`).join(', ')}; return ${body}; })`;
  }
}

const NO_LOCALS: ReadonlySet<number> = new Set();

/**
 * A boolean that is 0 or 1, never null: comparisons, equality, null tests, the plain boolean locals, and and/or/not
 * of such.
 */
function neverNull(e: CExpr, plain = NO_LOCALS): boolean {
  switch (e.k) {
    case 'cmp':
    case 'eq':
    case 'isNull':
    case 'isNaN':
      return true;
    case 'local':
      return plain.has(e.id);
    case 'and':
    case 'or':
      return neverNull(e.l, plain) && neverNull(e.r, plain);
    case 'not':
      return neverNull(e.e, plain);
    case 'cond':
      return neverNull(e.then, plain) && neverNull(e.otherwise, plain);
    default:
      return false;
  }
}

/** Whether Emitter.cond of the value is a JavaScript boolean (true/false), not just something truthy. */
function producesBoolean(e: CExpr, plain: ReadonlySet<number>): boolean {
  switch (e.k) {
    case 'cmp':
    case 'eq':
    case 'isNull':
    case 'isNaN':
    case 'not':
      return true;
    case 'local':
      return plain.has(e.id);
    case 'and':
    case 'or':
      return producesBoolean(e.l, plain) && producesBoolean(e.r, plain);
    default:
      return false;
  }
}

type Slot = { k: 'input'; slot: number } | { k: 'local'; id: number };

/** The inputs and locals a test is true for when any of them is null (`X == null || Y == null`); null otherwise. */
function nullTests(e: CExpr): Slot[] | null {
  if (e.k === 'isNull' && !e.negate && e.e.type !== 'string' && (e.e.k === 'input' || e.e.k === 'local'))
    return [e.e];
  if (e.k === 'or') {
    const l = nullTests(e.l);
    const r = nullTests(e.r);
    return l && r ? [...l, ...r] : null;
  }
  return null;
}

/** Whether the value is null (NaN) whenever x is: x itself, and arithmetic on it. */
function nullWith(e: CExpr, x: Slot): boolean {
  switch (e.k) {
    case 'input':
      return x.k === 'input' && e.slot === x.slot;
    case 'local':
      return x.k === 'local' && e.id === x.id;
    case 'neg':
      return nullWith(e.e, x);
    case 'arith':
      return nullWith(e.l, x) || nullWith(e.r, x);
    case 'cond':
      return nullWith(e.then, x) && nullWith(e.otherwise, x);
    default:
      return false;
  }
}

/** A value that is never infinite: literals, null, booleans, and choices between such. */
function neverInfinite(e: CExpr): boolean {
  switch (e.k) {
    case 'num':
    case 'null':
    case 'cmp':
    case 'eq':
    case 'isNull':
    case 'isNaN':
    case 'and':
    case 'or':
    case 'not':
      return true;
    case 'const':
      return e.name === 'ISECAZONE' || e.name === 'ISNODISCHARGEZONE';
    case 'cond':
      return neverInfinite(e.then) && neverInfinite(e.otherwise);
    default:
      return false;
  }
}

/** Whether every value the program returns is never infinite (then the store needs no guard). */
function returnsFinite(stmts: CStmt[]): boolean {
  return stmts.every((s) =>
    s.k === 'return'
      ? neverInfinite(s.value)
      : s.k === 'if'
        ? returnsFinite(s.then) && returnsFinite(s.otherwise)
        : true,
  );
}

/**
 * The statement that stores the row's result. A numeric column holds no infinity (x / 0 is null, as in the
 * editor's Test): `r + 0 * r` is r itself for every finite r (0 * r is a zero of r's sign, and adding it changes
 * nothing, -0 included) and NaN for ±Infinity (0 * Infinity is NaN) and NaN. Two operations without a branch: a
 * conditional (`r - r === 0 ? r : NaN`) cost EXCESS_SULFUR_REMOVED a tenth of its speed (bench/formula).
 */
function storeStatement(
  program: CheckedForEmit,
  outputType: OutputType | undefined,
  target: string,
  e: Emitter,
  finite: boolean,
): string {
  const value = outputConversion(program, outputType, 'r', (h) => e.h(h));
  const booleanStore = outputType === 'Boolean' && program.returnType !== 'boolean';
  if (!finite || booleanStore || program.returnType === 'string' || returnsFinite(program.body))
    return `${target} = ${value};`;
  return value === 'r' ? `${target} = r + 0 * r;` : `r = ${value};\n      ${target} = r + 0 * r;`;
}

const isSlot = (e: CExpr) => e.k === 'input' || e.k === 'local' || e.k === 'param' || e.k === 'const';

function numberLiteral(v: number): string {
  if (!Number.isFinite(v)) throw new Error('Internal error: a number literal must be finite');
  if (Object.is(v, -0)) return '(-0)';
  return v < 0 ? `(${String(v)})` : String(v);
}

function preamble(e: Emitter): string {
  return `"use strict";\n${[...e.helpers]
    .sort()
    .map((h) => `const h_${h} = H.${h};\n`)
    .join('')}`;
}

function declarations(program: CheckedForEmit, e: Emitter, extra: string[]): string {
  const names = [
    ...program.inputs.map((_, slot) => `in${slot} = ${program.kind === 'report-field' ? 'null' : 'NaN'}`),
    ...program.locals.map(
      (t, id) =>
        `l${id} = ${e.plainBooleans.has(id) ? 'false' : t === 'string' || t === 'series' ? 'null' : 'NaN'}`,
    ),
    ...e.topTemps().map((t) => `${t} = NaN`),
    `r = ${program.returnType === 'string' ? 'null' : 'NaN'}`,
    ...extra,
  ];
  return `  let ${names.join(', ')};\n`;
}

function constantLoads(program: CheckedProgram): string {
  return (
    [
      'Facility_IMO',
      'Facility_NumberOfScrubbers',
      'Facility_ScrubberSystemType',
      'Facility_TotalEffectKW',
    ] as const
  )
    .filter((c) => program.constants.has(c))
    .map((c) => `  const ${CONSTANT_SLOTS[c]} = K[${CONSTANT_SLOTS[c].slice(1)}];\n`)
    .join('');
}

function columnLoads(program: CheckedProgram): string {
  return program.inputs.map((_, slot) => `  const c${slot} = cols[${slot}];\n`).join('');
}

export interface CheckedForEmit extends CheckedProgram {
  kind: CalculationKind;
}

/**
 * The columns of the AVERAGE_OVER windows: the window's expression at every row (the inputs it reads loaded per
 * row), the pointer to the first row of each row's window, (t - window, t], and its mean. Emitted after the body,
 * whose emission collected the windows. The mean is summed in the row loop where the body reaches it (Emitter.means),
 * so a row that returns before it (not discharging) costs no window; the pointer moves with every row, as it did
 * when every row's mean was computed up front, so the means are the same bits.
 */
function windowColumns(program: CheckedProgram, e: Emitter): string {
  return e.windows
    .map((w, k) => {
      const loads = program.inputs
        .map((_, slot) => slot)
        .filter((slot) => new RegExp(`\\bin${slot}\\b`).test(w.expr))
        .map((slot) => `in${slot} = c${slot}[i]; `)
        .join('');
      return (
        `  const v${k} = new Float64Array(n);\n` +
        `  for (let i = 0; i < n; i++) { ${loads}v${k}[i] = ${w.expr}; }\n` +
        `  let w${k} = 0, m${k} = NaN;\n`
      );
    })
    .join('');
}

/** Moves each window's first row to the row i's window, (ts[i] - window, ts[i]]; at the top of every row. */
function windowStarts(e: Emitter): string {
  return e.windows
    .map((w, k) => `    while (w${k} <= i && ts[w${k}] <= ts[i] - ${numberLiteral(w.ms)}) w${k}++;\n`)
    .join('');
}

/**
 * JavaScript text of a measurement-field run: (cols, ts, E, Z, K, out, budgetMs) => out, one output per row.
 * `finite`: the output is a numeric column, where an infinite result is stored as null (NaN).
 */
export function emitMeasurement(program: CheckedForEmit, outputType?: OutputType, finite = false): string {
  const e = new Emitter();
  const usesTs = program.constants.has('TARGETTIMESTAMP');
  const usesEca = program.constants.has('ISECAZONE');
  const usesZone = program.constants.has('ISNODISCHARGEZONE');
  // Each statement loads the row values it reads (an input read only inside a window is read by its column's loop).
  program.inputs.forEach((_, slot) => e.rowLoads.set(`in${slot}`, `in${slot} = c${slot}[i];`));
  if (usesTs) e.rowLoads.set('tt', 'tt = ts[i];');
  if (usesEca) e.rowLoads.set('ez', 'ez = E[i];');
  if (usesZone) e.rowLoads.set('nz', 'nz = Z[i];');
  e.plan(program);
  const body = e.statements(program.body, '      ');
  const store = storeStatement(program, outputType, 'out[i]', e, finite);
  const windows = windowColumns(program, e);
  const now = e.h('now');
  const over = e.h('overBudget');
  const loads = windowStarts(e);
  const chunk = ROWS_PER_BUDGET_CHECK;
  return (
    preamble(e) +
    'return function measurement(cols, ts, E, Z, K, out, budgetMs) {\n' +
    '  const n = ts.length;\n' +
    columnLoads(program) +
    constantLoads(program) +
    declarations(program, e, [
      ...(usesTs ? ['tt = NaN'] : []),
      ...(usesEca ? ['ez = 0'] : []),
      ...(usesZone ? ['nz = 0'] : []),
    ]) +
    windows +
    `  const deadline = ${now}() + budgetMs;\n` +
    // The clock is read between chunks of rows, so that the inner loop stays as tight as a hand-written one.
    `  for (let at = 0; at < n; at += ${chunk}) {\n` +
    `    if (at !== 0 && ${now}() > deadline) ${over}(budgetMs, "row " + at);\n` +
    `    const end = at + ${chunk} < n ? at + ${chunk} : n;\n` +
    '    for (let i = at; i < end; i++) {\n' +
    loads.replace(/^ {4}/gm, '      ') +
    '      b: {\n' +
    body.replace(/^ {6}/gm, '        ') +
    '      }\n' +
    `      ${store}\n` +
    '    }\n' +
    '  }\n' +
    '  return out;\n' +
    '};\n'
  );
}

/** JavaScript text of a report-field run: (cols, ts, spanStarts, spanMs, K, out, budgetMs) => out, one output per span. */
export function emitSpans(program: CheckedForEmit, outputType?: OutputType, finite = false): string {
  const e = new Emitter();
  e.plan(program);
  const body = e.statements(program.body, '      ');
  const usesTs = program.constants.has('TARGETTIMESTAMP');
  const store = storeStatement(program, outputType, 'out[j]', e, finite).replace(/\n {6}/, '\n    ');
  const lowerBound = e.h('lowerBound');
  const tick = e.h('tick');
  const start = e.h('startBudget');
  const loads = program.inputs.map((_, slot) => `    in${slot} = c${slot}.subarray(lo, hi);\n`).join('');
  return (
    preamble(e) +
    'return function report(cols, ts, spanStarts, spanMs, K, out, budgetMs) {\n' +
    '  const m = spanStarts.length;\n' +
    `  const S = ${start}(budgetMs);\n` +
    columnLoads(program) +
    constantLoads(program) +
    declarations(program, e, usesTs ? ['tt = NaN'] : []) +
    '  for (let j = 0; j < m; j++) {\n' +
    '    const s0 = spanStarts[j];\n' +
    `    const lo = ${lowerBound}(ts, s0);\n` +
    `    const hi = ${lowerBound}(ts, s0 + spanMs);\n` +
    `    ${tick}(S, hi - lo + 1);\n` +
    loads +
    (usesTs ? '    tt = s0;\n' : '') +
    '    b: {\n' +
    body +
    '    }\n' +
    `    ${store}\n` +
    '  }\n' +
    '  return out;\n' +
    '};\n'
  );
}

type MeasurementRun = (
  cols: Float64Array[],
  ts: Float64Array,
  E: Uint8Array | undefined,
  Z: Uint8Array | undefined,
  K: unknown[],
  out: Float64Array | unknown[],
  budgetMs: number,
) => Float64Array | unknown[];
type SpanRun = (
  cols: Float64Array[],
  ts: Float64Array,
  spanStarts: Float64Array,
  spanMs: number,
  K: unknown[],
  out: Float64Array | unknown[],
  budgetMs: number,
) => Float64Array | unknown[];

/** Turns generated text into a function; the only door from generated text to running code. */
function instantiate<T>(code: string): T {
  try {
    return new Function('H', code)(HELPERS) as T;
  } catch (e) {
    throw new FormulaRuntimeError(`Internal error: generated code did not compile (${(e as Error).message})`);
  }
}

export const buildMeasurementRun = (program: CheckedForEmit, outputType?: OutputType, finite = false) =>
  instantiate<MeasurementRun>(emitMeasurement(program, outputType, finite));
export const buildSpanRun = (program: CheckedForEmit, outputType?: OutputType, finite = false) =>
  instantiate<SpanRun>(emitSpans(program, outputType, finite));
