import type {
  CExpr,
  CheckedProgram,
  CLambda,
  ConstantName,
  CStmt,
  DateTimeMember,
  Expr,
  MathFunction,
  Pos,
  Program,
  SeriesMethod,
  Stmt,
  ValueType,
} from './ast';
import { byPosition, errorAt, type FormulaError } from './errors';
import {
  CONSTANT_ALIASES,
  CONSTANT_TYPES,
  DATETIME_MEMBERS,
  didYouMean,
  MATH_FUNCTIONS,
  MAX_WINDOW_SECONDS,
  SERIES_METHODS,
  WINDOW_FUNCTIONS,
  ZONE_CONSTANTS,
} from './language';

export type CalculationKind = 'measurement-field' | 'report-field';
export type OutputType = 'Double' | 'Integer' | 'Boolean' | 'String' | 'UTCDateTime';

export interface CheckOptions {
  kind: CalculationKind;
  inputNames: readonly string[];
  outputType?: OutputType;
}

export type CheckResult = { ok: true; program: CheckedProgram } | { ok: false; errors: FormulaError[] };

const TYPE_NAMES: Record<ValueType, string> = {
  number: 'double',
  boolean: 'bool',
  string: 'string',
  datetime: 'DateTime',
  series: 'series',
  null: 'null',
  error: 'error',
};

const isNumeric = (t: ValueType) => t === 'number' || t === 'boolean' || t === 'null' || t === 'error';

/** The common type of two branches, or undefined when there is none. */
function unify(a: ValueType, b: ValueType): ValueType | undefined {
  if (a === 'error' || b === 'error') return 'error';
  if (a === 'null') return b;
  if (b === 'null') return a;
  if (a === b) return a;
  if (isNumeric(a) && isNumeric(b)) return 'number';
  return undefined;
}

function assignable(target: ValueType, source: ValueType): boolean {
  if (source === 'error' || target === 'error') return true;
  if (target === 'number' || target === 'boolean') return isNumeric(source);
  if (target === 'series') return source === 'series';
  return source === target || source === 'null';
}

/** Gives an untyped `null` literal the type its surroundings call for. */
function settle(e: CExpr, type: ValueType): CExpr {
  if (e.k === 'null' && e.type === 'null') e.type = type;
  return e;
}

const SERIES_HINT = 'reduce it first, e.g. with .Average()';

interface Local {
  id: number;
  type: ValueType;
}

/** Resolves names to input slots, locals and constants; types every expression; checks return paths and the output type. */
export function check(program: Program, options: CheckOptions): CheckResult {
  return new Checker(options).run(program);
}

class Checker {
  private errors: FormulaError[] = [];
  private locals: ValueType[] = [];
  private scopes: Map<string, Local>[] = [new Map()];
  private params: Map<string, number>[] = [];
  private paramCount = 0;
  private inputNames: Set<string>;
  private inputSlots = new Map<string, number>();
  private constants = new Set<ConstantName>();
  private strings: string[] = [];
  private returns: { type: ValueType; pos: Pos }[] = [];
  /** Inside the first argument of AVERAGE_OVER: only inputs, numbers and the ship's constants. */
  private inWindow = false;
  private windowSeconds = 0;

  constructor(private readonly options: CheckOptions) {
    this.inputNames = new Set(
      options.inputNames.filter(
        (n) => !Object.hasOwn(CONSTANT_TYPES, n) && !Object.hasOwn(CONSTANT_ALIASES, n),
      ),
    );
  }

  run(program: Program): CheckResult {
    const body = this.block(program.body, false);
    if (!alwaysReturns(program.body)) this.error(program.end, 'Not all code paths return a value');
    const returnType = this.returnType();
    if (this.errors.length > 0) return { ok: false, errors: this.errors.sort(byPosition) };
    return {
      ok: true,
      program: {
        body,
        locals: this.locals,
        lambdaParams: this.paramCount,
        inputs: [...this.inputSlots.keys()],
        constants: this.constants,
        windowSeconds: this.windowSeconds,
        returnType,
        strings: this.strings,
      },
    };
  }

  private returnType(): ValueType {
    let type: ValueType = 'null';
    for (const r of this.returns) {
      const u = unify(type, r.type);
      if (u === undefined) {
        this.error(
          r.pos,
          `Type mismatch: cannot return ${TYPE_NAMES[r.type]} here; another return statement returns ${TYPE_NAMES[type]}`,
        );
        return 'error';
      }
      type = u;
    }
    const wanted = this.options.outputType;
    if (wanted) {
      const fits = (t: ValueType) =>
        t === 'null' ||
        t === 'error' ||
        (wanted === 'String' ? t === 'string' : wanted === 'UTCDateTime' ? t === 'datetime' : isNumeric(t));
      const bad = this.returns.find((r) => !fits(r.type));
      if (bad) this.error(bad.pos, `Algorithm must return a value of type ${wanted}`);
    }
    return type;
  }

  // ---- statements

  private block(stmts: Stmt[], newScope: boolean): CStmt[] {
    if (newScope) this.scopes.push(new Map());
    const out: CStmt[] = [];
    for (const s of stmts) this.statement(s, out);
    if (newScope) this.scopes.pop();
    return out;
  }

  private statement(s: Stmt, out: CStmt[]): void {
    switch (s.kind) {
      case 'empty':
        return;
      case 'block':
        out.push(...this.block(s.body, true));
        return;
      case 'declare': {
        const init = s.init ? this.expr(s.init) : null;
        let type: ValueType;
        if (s.declaredType === 'var') {
          if (!init) {
            this.error(s.namePos, 'An implicitly typed variable (var) must be initialized');
            type = 'error';
          } else if (init.type === 'null') {
            this.error(s.init!.pos, 'Cannot assign null to an implicitly typed variable (var)');
            type = 'error';
          } else {
            type = init.type;
          }
        } else {
          type = s.declaredType === 'string' ? 'string' : s.declaredType === 'bool' ? 'boolean' : 'number';
          if (init && !assignable(type, init.type)) {
            this.error(
              s.init!.pos,
              `Type mismatch: cannot assign ${TYPE_NAMES[init.type]} to ${s.declaredType}`,
            );
          }
        }
        const id = this.declare(s.name, s.namePos, type);
        const value: CExpr = init ? settle(init, type) : { k: 'null', type };
        out.push({ k: 'set', id, value, truncate: s.declaredType === 'int' });
        return;
      }
      case 'assign': {
        const target = this.lookupLocal(s.name);
        let value = this.expr(s.value);
        if (!target) {
          this.assignTargetError(s.name, s.pos);
          return;
        }
        if (s.op !== '=') {
          value = this.binary(s.op[0] as '+', { k: 'local', id: target.id, type: target.type }, value, s.pos);
        }
        if (!assignable(target.type, value.type)) {
          this.error(
            s.value.pos,
            `Type mismatch: cannot assign ${TYPE_NAMES[value.type]} to ${TYPE_NAMES[target.type]}`,
          );
        }
        out.push({ k: 'set', id: target.id, value: settle(value, target.type), truncate: false });
        return;
      }
      case 'if': {
        const test = this.condition(s.test);
        const then = this.block([s.then], true);
        const otherwise = s.otherwise ? this.block([s.otherwise], true) : [];
        out.push({ k: 'if', test, then, otherwise });
        return;
      }
      case 'return': {
        if (!s.value) {
          this.error(s.pos, 'A return statement must return a value');
          return;
        }
        const value = this.expr(s.value);
        if (value.type === 'series') this.error(s.value.pos, `Cannot return a series; ${SERIES_HINT}`);
        this.returns.push({ type: value.type, pos: s.value.pos });
        out.push({ k: 'return', value });
        return;
      }
    }
  }

  private declare(name: string, pos: Pos, type: ValueType): number {
    const id = this.locals.length;
    this.locals.push(type);
    if (this.lookupLocal(name) || this.params.some((p) => p.has(name))) {
      this.error(pos, `A local variable named '${name}' is already defined`);
    } else if (
      Object.hasOwn(CONSTANT_TYPES, name) ||
      Object.hasOwn(CONSTANT_ALIASES, name) ||
      name === 'Math'
    ) {
      this.error(pos, `'${name}' is a name of the language and cannot be redeclared`);
    } else if (this.inputNames.has(name)) {
      this.error(pos, `'${name}' is an input and cannot be redeclared`);
    }
    // scopes starts with the top level's scope; blocks push and pop their own, so it is never empty.
    this.scopes[this.scopes.length - 1]!.set(name, { id, type });
    return id;
  }

  private lookupLocal(name: string): Local | undefined {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const found = this.scopes[i]!.get(name);
      if (found) return found;
    }
    return undefined;
  }

  private assignTargetError(name: string, pos: Pos) {
    if (this.params.some((p) => p.has(name))) this.error(pos, `Cannot assign to lambda parameter '${name}'`);
    else if (this.inputNames.has(name)) this.error(pos, `Cannot assign to '${name}': inputs are read-only`);
    else if (Object.hasOwn(CONSTANT_TYPES, name) || Object.hasOwn(CONSTANT_ALIASES, name))
      this.error(pos, `Cannot assign to '${name}': constants are read-only`);
    else this.unknownName(name, pos);
  }

  private condition(e: Expr): CExpr {
    const c = this.expr(e);
    if (c.type === 'series')
      this.error(e.pos, `Cannot use a series as a condition; ${SERIES_HINT.replace('.Average()', '.Any()')}`);
    else if (!isNumeric(c.type)) this.error(e.pos, `Cannot use a ${TYPE_NAMES[c.type]} as a condition`);
    return settle(c, 'boolean');
  }

  // ---- expressions

  private expr(e: Expr): CExpr {
    switch (e.kind) {
      case 'number':
        return { k: 'num', value: e.value, type: 'number' };
      case 'bool':
        return { k: 'num', value: e.value ? 1 : 0, type: 'boolean' };
      case 'string':
        this.strings.push(e.value);
        return { k: 'str', value: e.value, type: 'string' };
      case 'null':
        return { k: 'null', type: 'null' };
      case 'name':
        return this.name(e.name, e.pos);
      case 'typeName':
        return this.fail(e.pos, `'${e.name}' is a type; did you mean double.IsNaN(x)?`);
      case 'lambda':
        return this.fail(e.pos, 'A lambda (v => ...) is only allowed as the argument of a series method');
      case 'unary': {
        const operand = this.expr(e.operand);
        if (operand.type === 'series')
          return this.fail(e.pos, `Operator '${e.op}' cannot be applied to a series; ${SERIES_HINT}`);
        if (!isNumeric(operand.type))
          return this.fail(
            e.pos,
            `Operator '${e.op}' cannot be applied to operand of type ${TYPE_NAMES[operand.type]}`,
          );
        settle(operand, 'number');
        if (e.op === '!') return { k: 'not', e: operand, type: 'boolean' };
        if (e.op === '-') return { k: 'neg', e: operand, type: 'number' };
        return { ...operand, type: operand.type === 'error' ? 'error' : 'number' };
      }
      case 'binary':
        return this.binary(e.op, this.expr(e.left), this.expr(e.right), e.pos);
      case 'conditional': {
        const test = this.condition(e.test);
        const then = this.expr(e.then);
        const otherwise = this.expr(e.otherwise);
        const type = unify(then.type, otherwise.type);
        if (type === undefined) {
          return this.fail(
            e.pos,
            `Conditional branches have different types: ${TYPE_NAMES[then.type]} and ${TYPE_NAMES[otherwise.type]}`,
          );
        }
        return { k: 'cond', test, then: settle(then, type), otherwise: settle(otherwise, type), type };
      }
      case 'member':
        return this.member(e);
      case 'call':
        return this.call(e);
    }
  }

  private binary(op: string, l: CExpr, r: CExpr, pos: Pos): CExpr {
    if (l.type === 'error' || r.type === 'error') return { k: 'null', type: 'error' };
    const mismatch = () =>
      this.fail(
        pos,
        `Operator '${op}' cannot be applied to operands of type ${TYPE_NAMES[l.type]} and ${TYPE_NAMES[r.type]}`,
      );
    if (op !== '??' && (l.type === 'series' || r.type === 'series')) {
      return this.fail(pos, `Operator '${op}' cannot be applied to a series; ${SERIES_HINT}`);
    }
    switch (op) {
      case '+':
      case '-':
      case '*':
      case '/':
      case '%':
        if (op === '+' && (l.type === 'string' || r.type === 'string')) {
          if (l.type === 'datetime' || r.type === 'datetime') return mismatch();
          return { k: 'concat', l: settle(l, 'string'), r: settle(r, 'string'), type: 'string' };
        }
        if (!isNumeric(l.type) || !isNumeric(r.type)) return mismatch();
        return { k: 'arith', op, l: settle(l, 'number'), r: settle(r, 'number'), type: 'number' };
      case '<':
      case '<=':
      case '>':
      case '>=':
        if ((isNumeric(l.type) && isNumeric(r.type)) || (l.type === 'datetime' && r.type === 'datetime')) {
          return { k: 'cmp', op, l: settle(l, 'number'), r: settle(r, 'number'), type: 'boolean' };
        }
        return mismatch();
      case '==':
      case '!=': {
        const negate = op === '!=';
        if (l.k === 'null' && r.k === 'null') return { k: 'num', value: negate ? 0 : 1, type: 'boolean' };
        if (r.k === 'null') return { k: 'isNull', negate, e: settle(l, 'number'), type: 'boolean' };
        if (l.k === 'null') return { k: 'isNull', negate, e: settle(r, 'number'), type: 'boolean' };
        const type = unify(l.type, r.type);
        if (type === undefined) return mismatch();
        return { k: 'eq', negate, l, r, type: 'boolean' };
      }
      case '&&':
      case '||':
        if (!isNumeric(l.type) || !isNumeric(r.type)) return mismatch();
        return {
          k: op === '&&' ? 'and' : 'or',
          l: settle(l, 'boolean'),
          r: settle(r, 'boolean'),
          type: 'boolean',
        };
      case '??': {
        const type = unify(l.type, r.type);
        if (type === undefined || type === 'series') return mismatch();
        return { k: 'coalesce', l: settle(l, type), r: settle(r, type), type };
      }
    }
    return mismatch();
  }

  private name(name: string, pos: Pos): CExpr {
    if (this.inWindow) return this.windowName(name, pos);
    for (let i = this.params.length - 1; i >= 0; i--) {
      const id = this.params[i]!.get(name);
      if (id !== undefined) return { k: 'param', id, type: 'number' };
    }
    const local = this.lookupLocal(name);
    if (local) return { k: 'local', id: local.id, type: local.type };
    const constant: ConstantName | undefined = Object.hasOwn(CONSTANT_TYPES, name)
      ? (name as ConstantName)
      : Object.hasOwn(CONSTANT_ALIASES, name)
        ? CONSTANT_ALIASES[name]
        : undefined;
    if (constant) {
      if (ZONE_CONSTANTS.includes(constant) && this.options.kind === 'report-field') {
        return this.fail(
          pos,
          `${constant} is not available in a report-field calculation; use a measurement field that reads it`,
        );
      }
      this.constants.add(constant);
      return { k: 'const', name: constant, type: CONSTANT_TYPES[constant] };
    }
    if (this.inputNames.has(name)) {
      let slot = this.inputSlots.get(name);
      if (slot === undefined) {
        slot = this.inputSlots.size;
        this.inputSlots.set(name, slot);
      }
      return { k: 'input', slot, type: this.options.kind === 'report-field' ? 'series' : 'number' };
    }
    if (name === 'Math')
      return this.fail(pos, "'Math' can only be used to call a Math function, e.g. Math.Abs(x)");
    return this.unknownName(name, pos);
  }

  private unknownName(name: string, pos: Pos): CExpr {
    const candidates = [
      ...this.inputNames,
      ...Object.keys(CONSTANT_TYPES),
      ...this.scopes.flatMap((s) => [...s.keys()]),
      ...this.params.flatMap((p) => [...p.keys()]),
    ];
    if (Object.hasOwn(MATH_FUNCTIONS, name))
      return this.fail(pos, `Unknown name '${name}'. Did you mean 'Math.${name}'?`);
    return this.fail(pos, `Unknown name '${name}'${didYouMean(name, candidates)}`);
  }

  private member(e: Extract<Expr, { kind: 'member' }>): CExpr {
    if (e.object.kind === 'name' && e.object.name === 'Math' && !this.lookupLocal('Math')) {
      if (Object.hasOwn(MATH_FUNCTIONS, e.name))
        return this.fail(e.namePos, `'Math.${e.name}' is a function; call it as Math.${e.name}(...)`);
      return this.unknownMathFunction(e.name, e.namePos);
    }
    if (e.object.kind === 'typeName')
      return this.fail(e.namePos, `'${e.object.name}.${e.name}' must be called, e.g. double.IsNaN(x)`);
    const object = this.expr(e.object);
    if (object.type === 'error') return object;
    if (object.type === 'datetime') {
      if (!DATETIME_MEMBERS.includes(e.name as DateTimeMember)) {
        return this.fail(
          e.namePos,
          `Unknown member '${e.name}' of DateTime${didYouMean(e.name, DATETIME_MEMBERS)}`,
        );
      }
      return { k: 'date', member: e.name as DateTimeMember, e: object, type: 'number' };
    }
    if (object.type === 'series' && Object.hasOwn(SERIES_METHODS, e.name)) {
      return this.fail(e.namePos, `'.${e.name}' is a method; call it as '.${e.name}()'`);
    }
    return this.fail(e.namePos, `Unknown member '${e.name}' of ${TYPE_NAMES[object.type]}`);
  }

  private call(e: Extract<Expr, { kind: 'call' }>): CExpr {
    const callee = e.callee;
    if (callee.kind === 'name' && (WINDOW_FUNCTIONS as readonly string[]).includes(callee.name))
      return this.windowCall(callee.name, callee.pos, e.args);
    if (callee.kind !== 'member') {
      if (callee.kind === 'name' && Object.hasOwn(MATH_FUNCTIONS, callee.name)) {
        return this.fail(
          callee.pos,
          `Unknown function '${callee.name}'. Did you mean 'Math.${callee.name}'?`,
        );
      }
      return this.fail(callee.pos, 'Only Math functions, double.IsNaN and series methods can be called');
    }
    if (callee.object.kind === 'name' && callee.object.name === 'Math' && !this.lookupLocal('Math'))
      return this.mathCall(callee.name, callee.namePos, e.args);
    if (callee.object.kind === 'typeName') {
      if (callee.object.name !== 'double' || callee.name !== 'IsNaN') {
        return this.fail(
          callee.namePos,
          `Unknown function '${callee.object.name}.${callee.name}'. Did you mean 'double.IsNaN'?`,
        );
      }
      if (e.args.length !== 1) return this.fail(callee.namePos, "'double.IsNaN' takes 1 argument");
      const arg = this.numericArgument(e.args[0]!, 'double.IsNaN');
      return { k: 'isNaN', e: arg, type: 'boolean' };
    }
    const target = this.expr(callee.object);
    if (target.type === 'error') return target;
    const method = callee.name;
    if (target.type !== 'series') {
      const what =
        target.type === 'number' || target.type === 'boolean' || target.type === 'null'
          ? 'a number'
          : `a ${TYPE_NAMES[target.type]}`;
      if (Object.hasOwn(SERIES_METHODS, method))
        return this.fail(callee.namePos, `Cannot apply '.${method}()' to ${what}`);
      return this.fail(callee.namePos, `Unknown method '${method}' of ${what}`);
    }
    if (!Object.hasOwn(SERIES_METHODS, method)) {
      return this.fail(
        callee.namePos,
        `Unknown series method '${method}'${didYouMean(method, Object.keys(SERIES_METHODS))}`,
      );
    }
    const info = SERIES_METHODS[method as SeriesMethod];
    if (e.args.length > 1) return this.fail(callee.namePos, `'.${method}()' takes at most one argument`);
    let lambda: CLambda | null = null;
    if (e.args.length === 0) {
      if (info.lambdaRequired) {
        const example = info.lambda === 'predicate' ? 'v => v > 0' : 'v => v * 2';
        return this.fail(
          callee.namePos,
          `'.${method}()' needs a lambda argument, e.g. .${method}(${example})`,
        );
      }
    } else {
      const arg = e.args[0]!; // exactly one argument here
      if (arg.kind !== 'lambda') {
        return this.fail(
          arg.pos,
          `The argument of '.${method}()' must be a lambda, e.g. v => ${info.lambda === 'predicate' ? 'v > 0' : 'v * 2'}`,
        );
      }
      if (this.lookupLocal(arg.param) || this.params.some((p) => p.has(arg.param))) {
        return this.fail(arg.pos, `A local variable or parameter named '${arg.param}' is already defined`);
      }
      const id = this.paramCount++;
      this.params.push(new Map([[arg.param, id]]));
      const body = this.expr(arg.body);
      this.params.pop();
      if (!isNumeric(body.type)) {
        const expected = info.lambda === 'predicate' ? 'bool' : 'number';
        return this.fail(
          arg.body.pos,
          `The lambda of '.${method}()' must return a ${expected}, not ${TYPE_NAMES[body.type]}`,
        );
      }
      lambda = { param: id, body: settle(body, 'number') };
    }
    return { k: 'series', method: method as SeriesMethod, target, lambda, type: info.result };
  }

  /**
   * AVERAGE_OVER(expression, seconds): the mean of the expression's non-null values at the rows whose timestamps lie
   * in (t - seconds, t]. The expression is evaluated at every row of the window, so it may read only the inputs,
   * numbers and the ship's constants (no locals, no TARGETTIMESTAMP, no zone, no nested window).
   */
  private windowCall(fn: string, pos: Pos, args: Expr[]): CExpr {
    if (this.options.kind !== 'measurement-field')
      return this.fail(
        pos,
        `${fn} is only available in a measurement-field calculation; a report field reduces its series, e.g. with .Average()`,
      );
    if (this.inWindow) return this.fail(pos, `${fn} cannot be used inside another ${fn}`);
    if (args.length !== 2)
      return this.fail(pos, `'${fn}' takes 2 arguments: an expression and a number of seconds`);
    const seconds = args[1]!;
    if (
      seconds.kind !== 'number' ||
      !Number.isInteger(seconds.value) ||
      seconds.value < 1 ||
      seconds.value > MAX_WINDOW_SECONDS
    )
      return this.fail(
        seconds.pos,
        `The window of '${fn}' must be a whole number of seconds from 1 to ${MAX_WINDOW_SECONDS}, e.g. 900`,
      );
    this.inWindow = true;
    const e = this.numericArgument(args[0]!, fn);
    this.inWindow = false;
    this.windowSeconds = Math.max(this.windowSeconds, seconds.value);
    return { k: 'window', e, seconds: seconds.value, type: 'number' };
  }

  private windowName(name: string, pos: Pos): CExpr {
    if (this.inputNames.has(name) && !this.lookupLocal(name)) {
      this.inWindow = false;
      const input = this.name(name, pos);
      this.inWindow = true;
      return input;
    }
    const constant = Object.hasOwn(CONSTANT_TYPES, name)
      ? (name as ConstantName)
      : Object.hasOwn(CONSTANT_ALIASES, name)
        ? CONSTANT_ALIASES[name]
        : undefined;
    if (constant && constant.startsWith('Facility_')) {
      this.inWindow = false;
      const value = this.name(name, pos);
      this.inWindow = true;
      return value;
    }
    if (constant || this.lookupLocal(name))
      return this.fail(
        pos,
        `'${name}' cannot be used inside AVERAGE_OVER: its expression may read only inputs, numbers and the ship's constants`,
      );
    this.inWindow = false;
    const unknown = this.unknownName(name, pos);
    this.inWindow = true;
    return unknown;
  }

  private mathCall(fn: string, pos: Pos, args: Expr[]): CExpr {
    if (!Object.hasOwn(MATH_FUNCTIONS, fn)) return this.unknownMathFunction(fn, pos);
    const arity = MATH_FUNCTIONS[fn as MathFunction];
    if (args.length < arity.min || args.length > arity.max) {
      const count = arity.min === arity.max ? `${arity.min}` : `${arity.min} or ${arity.max}`;
      return this.fail(pos, `'Math.${fn}' takes ${count} argument${arity.max === 1 ? '' : 's'}`);
    }
    const checked = args.map((a) => this.numericArgument(a, `Math.${fn}`));
    return { k: 'math', fn: fn as MathFunction, args: checked, type: 'number' };
  }

  private unknownMathFunction(fn: string, pos: Pos): CExpr {
    const s = didYouMean(fn, Object.keys(MATH_FUNCTIONS)).replace("mean '", "mean 'Math.");
    return this.fail(pos, `Unknown function 'Math.${fn}'${s}`);
  }

  private numericArgument(a: Expr, fn: string): CExpr {
    const c = this.expr(a);
    if (c.type === 'series')
      return this.fail(a.pos, `'${fn}' expects a number, not a series; ${SERIES_HINT}`);
    if (!isNumeric(c.type)) return this.fail(a.pos, `'${fn}' expects a number, not ${TYPE_NAMES[c.type]}`);
    return settle(c, 'number');
  }

  private fail(pos: Pos, message: string): CExpr {
    this.error(pos, message);
    return { k: 'null', type: 'error' };
  }

  private error(pos: Pos, message: string) {
    this.errors.push(errorAt(pos, message));
  }
}

function alwaysReturns(stmts: Stmt[]): boolean {
  return stmts.some((s) => {
    if (s.kind === 'return') return true;
    if (s.kind === 'block') return alwaysReturns(s.body);
    if (s.kind === 'if')
      return s.otherwise !== null && alwaysReturns([s.then]) && alwaysReturns([s.otherwise]);
    return false;
  });
}
