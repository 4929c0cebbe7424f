import {
  compile,
  FormulaRuntimeError,
  type CompiledCalculation,
  type FormulaError,
  type OutputType,
} from '@portal/formula';

/** An error in the data or the calculations: retrying will not help, so the job fails at once with this text. */
export class ExecutionError extends Error {
  readonly permanent = true;
}

function describeFormulaErrors(what: string, errors: readonly FormulaError[]): string {
  const e = errors[0]!;
  const at = e.startLine > 0 ? ` (line ${e.startLine}, character ${e.startCharacter})` : '';
  return `${what}: ${e.message}${at}${errors.length > 1 ? ` and ${errors.length - 1} more error(s)` : ''}`;
}

/** Compiles once per calculation; a failed compile is a permanent error of the execution. */
export function compileCalculation(
  kind: 'measurement-field' | 'report-field',
  what: string,
  algorithm: string,
  inputNames: string[],
  outputType?: OutputType,
): CompiledCalculation {
  const compiled = compile(algorithm, { kind, inputNames, outputType });
  if (!compiled.ok) throw new ExecutionError(describeFormulaErrors(what, compiled.errors));
  return compiled.program;
}

const windowCache = new Map<string, number>();

/**
 * The longest AVERAGE_OVER window (seconds) of a measurement calculation, 0 without one or when it does not compile
 * (the measurement step reports that error): the rows before the period the calculation needs.
 */
export function calculationWindowSeconds(algorithm: string, inputNames: string[]): number {
  const key = `${inputNames.join(',')}\n${algorithm}`;
  let seconds = windowCache.get(key);
  if (seconds === undefined) {
    const compiled = compile(algorithm, { kind: 'measurement-field', inputNames });
    seconds = compiled.ok ? compiled.program.windowSeconds : 0;
    if (windowCache.size > 1000) windowCache.clear();
    windowCache.set(key, seconds);
  }
  return seconds;
}

/** Runs a compiled calculation; a runtime error (including the time budget) is a permanent error of the execution. */
export function runCalculation<T>(what: string, run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof FormulaRuntimeError) {
      throw new ExecutionError(
        describeFormulaErrors(what, [
          { message: error.message, startLine: error.startLine, startCharacter: error.startCharacter },
        ]),
      );
    }
    throw error;
  }
}
