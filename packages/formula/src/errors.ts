import type { Pos } from './ast';

/** An error in an algorithm. Lines and characters are both 1-based; 0/0 means "no place in the source". */
export interface FormulaError {
  message: string;
  startLine: number;
  startCharacter: number;
}

export function errorAt(pos: Pos, message: string): FormulaError {
  return { message, startLine: pos.line, startCharacter: pos.character };
}

/** Thrown by the evaluate functions: a missing input column, an exceeded time budget, ... */
export class FormulaRuntimeError extends Error {
  readonly startLine: number;
  readonly startCharacter: number;
  constructor(message: string, pos?: { startLine: number; startCharacter: number }) {
    super(message);
    this.name = 'FormulaRuntimeError';
    this.startLine = pos?.startLine ?? 0;
    this.startCharacter = pos?.startCharacter ?? 0;
  }
}

export function byPosition(a: FormulaError, b: FormulaError): number {
  return a.startLine - b.startLine || a.startCharacter - b.startCharacter;
}
