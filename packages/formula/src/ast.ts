/** A place in the source: 0-based offset, 1-based line and character. */
export interface Pos {
  offset: number;
  line: number;
  character: number;
}

// ---- Syntax tree, as parsed -------------------------------------------------------------

export type BinaryOp =
  '+' | '-' | '*' | '/' | '%' | '==' | '!=' | '<' | '<=' | '>' | '>=' | '&&' | '||' | '??';
export type UnaryOp = '-' | '+' | '!';
export type DeclaredType = 'var' | 'double' | 'int' | 'bool' | 'string';
export type AssignOp = '=' | '+=' | '-=' | '*=' | '/=';

export type Expr =
  | { kind: 'number'; value: number; pos: Pos }
  | { kind: 'string'; value: string; pos: Pos }
  | { kind: 'bool'; value: boolean; pos: Pos }
  | { kind: 'null'; pos: Pos }
  | { kind: 'name'; name: string; pos: Pos }
  /** The keyword `double` used as a type, as in `double.IsNaN(x)`. */
  | { kind: 'typeName'; name: DeclaredType; pos: Pos }
  | { kind: 'unary'; op: UnaryOp; operand: Expr; pos: Pos }
  | { kind: 'binary'; op: BinaryOp; left: Expr; right: Expr; pos: Pos }
  | { kind: 'conditional'; test: Expr; then: Expr; otherwise: Expr; pos: Pos }
  | { kind: 'member'; object: Expr; name: string; namePos: Pos; pos: Pos }
  | { kind: 'call'; callee: Expr; args: Expr[]; pos: Pos }
  | { kind: 'lambda'; param: string; body: Expr; pos: Pos };

export type Stmt =
  | { kind: 'declare'; declaredType: DeclaredType; name: string; init: Expr | null; pos: Pos; namePos: Pos }
  | { kind: 'assign'; name: string; op: AssignOp; value: Expr; pos: Pos }
  | { kind: 'if'; test: Expr; then: Stmt; otherwise: Stmt | null; pos: Pos }
  | { kind: 'block'; body: Stmt[]; pos: Pos }
  | { kind: 'return'; value: Expr | null; pos: Pos }
  | { kind: 'empty'; pos: Pos };

export interface Program {
  body: Stmt[];
  /** Position just after the last token. */
  end: Pos;
}

// ---- Checked tree: names resolved to slots, every node typed ---------------------------
// The code generator reads only this tree, so nothing from the user's text reaches the
// generated JavaScript except numbers and (JSON-escaped) string values.

/** 'error' only appears while checking a program that has errors; such a program is never emitted. */
export type ValueType = 'number' | 'boolean' | 'string' | 'datetime' | 'series' | 'null' | 'error';

export type ConstantName =
  | 'TARGETTIMESTAMP'
  | 'Facility_IMO'
  | 'Facility_NumberOfScrubbers'
  | 'Facility_ScrubberSystemType'
  | 'Facility_TotalEffectKW'
  | 'ISECAZONE'
  | 'ISNODISCHARGEZONE';
export type MathFunction =
  'Abs' | 'Min' | 'Max' | 'Pow' | 'Sqrt' | 'Round' | 'Floor' | 'Ceiling' | 'Log' | 'Exp';
export type DateTimeMember = 'Year' | 'Month' | 'Day' | 'Hour' | 'Minute' | 'Second' | 'DayOfWeek';
export type SeriesMethod =
  'Average' | 'Sum' | 'Min' | 'Max' | 'Count' | 'First' | 'Last' | 'Where' | 'Select' | 'Any' | 'All';

export interface CLambda {
  param: number;
  body: CExpr;
}

export type CExpr = { type: ValueType } & (
  | { k: 'num'; value: number }
  | { k: 'str'; value: string }
  | { k: 'null' }
  | { k: 'input'; slot: number }
  | { k: 'local'; id: number }
  | { k: 'param'; id: number }
  | { k: 'const'; name: ConstantName }
  | { k: 'neg'; e: CExpr }
  | { k: 'not'; e: CExpr }
  | { k: 'arith'; op: '+' | '-' | '*' | '/' | '%'; l: CExpr; r: CExpr }
  | { k: 'concat'; l: CExpr; r: CExpr }
  | { k: 'cmp'; op: '<' | '<=' | '>' | '>='; l: CExpr; r: CExpr }
  | { k: 'eq'; negate: boolean; l: CExpr; r: CExpr }
  | { k: 'isNull'; negate: boolean; e: CExpr }
  | { k: 'and' | 'or'; l: CExpr; r: CExpr }
  | { k: 'cond'; test: CExpr; then: CExpr; otherwise: CExpr }
  | { k: 'coalesce'; l: CExpr; r: CExpr }
  | { k: 'math'; fn: MathFunction; args: CExpr[] }
  | { k: 'isNaN'; e: CExpr }
  | { k: 'date'; member: DateTimeMember; e: CExpr }
  | { k: 'series'; method: SeriesMethod; target: CExpr; lambda: CLambda | null }
  /** AVERAGE_OVER(e, seconds): the mean of e over the rows in (t - seconds, t] (measurement fields). */
  | { k: 'window'; e: CExpr; seconds: number }
);

export type CStmt =
  | { k: 'set'; id: number; value: CExpr; truncate: boolean }
  | { k: 'if'; test: CExpr; then: CStmt[]; otherwise: CStmt[] }
  | { k: 'return'; value: CExpr };

export interface CheckedProgram {
  body: CStmt[];
  /** Type of each local, indexed by id. */
  locals: ValueType[];
  lambdaParams: number;
  /** Input names in slot order: only those the algorithm reads. */
  inputs: string[];
  constants: Set<ConstantName>;
  /** The longest AVERAGE_OVER window in seconds (0 without one): the rows before a period it needs. */
  windowSeconds: number;
  /** Static type of the returned value ('null' when every return is `return null;`). */
  returnType: ValueType;
  /** All string literal values, for the safety audit. */
  strings: string[];
}
