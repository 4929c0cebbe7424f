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
