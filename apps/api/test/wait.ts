/**
 * Tests wait for a condition, never for a time: a job finished, a message arrived, a row exists. `waitFor` asks
 * again every `intervalMs` (short) until the condition holds and answers what it read; after `timeoutMs` it fails
 * naming what it waited for and the last answer (or error) it saw. For "nothing more arrived" checks, wait on a
 * barrier the code exposes (the job queue's `drained`, a process's own line) and then count.
 */
export interface WaitOptions {
  /** What is waited for, as the failure names it: "the digest e-mail", "execution 3 to finish". */
  what: string;
  /** 30 s unless given: generous, a busy 2-core machine is not a failure. */
  timeoutMs?: number;
  /** 100 ms unless given. */
  intervalMs?: number;
}

type Holds<T> = Exclude<T, false | null | undefined | 0 | ''>;

/** Waits until `until` holds for what `read` answers, and answers that. */
export function waitFor<T>(
  read: () => T | Promise<T>,
  options: WaitOptions & { until: (value: T) => boolean; show?: (value: T) => string },
): Promise<T>;
/** Waits until `condition` answers a value (not false, null, undefined, 0 or '') and answers it. */
export function waitFor<T>(condition: () => T | Promise<T>, options: WaitOptions): Promise<Holds<T>>;
export async function waitFor<T>(
  read: () => T | Promise<T>,
  options: WaitOptions & { until?: (value: T) => boolean; show?: (value: T) => string },
): Promise<T> {
  const { what, timeoutMs = 30_000, intervalMs = 100 } = options;
  const holds = options.until ?? ((value: T) => Boolean(value));
  const deadline = Date.now() + timeoutMs;
  let last: string;
  for (;;) {
    try {
      const value = await read();
      if (holds(value)) return value;
      last = options.show ? options.show(value) : describe(value);
    } catch (error) {
      // A server still starting refuses connections: asked again; the error is named if it lasts.
      last = `error: ${(error as Error).message}`;
    }
    if (Date.now() >= deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last seen: ${last}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

function describe(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return text.length > 600 ? `${text.slice(0, 600)}...` : text;
}
