/**
 * Shares one read among the callers that ask while it is being made, without handing anyone a value read before
 * they asked: a caller arriving while a read is under way gets the next read, which starts as soon as the current
 * one ends and serves everyone who arrived meanwhile. Under load, hundreds of requests share a handful of reads,
 * and each still sees every change committed before it arrived (features/auth/verify.ts: the access version).
 */
export function readAfterArrival<T>(read: () => Promise<T>): () => Promise<T> {
  let current: Promise<T> | null = null;
  let queued: Promise<T> | null = null;
  const start = (): Promise<T> => {
    const reading = read();
    current = reading;
    const done = () => {
      if (current === reading) current = null;
    };
    reading.then(done, done);
    return reading;
  };
  return () => {
    if (!current) return start();
    if (!queued) {
      queued = current
        .then(
          () => undefined,
          () => undefined,
        )
        .then(() => {
          queued = null;
          return start();
        });
    }
    return queued;
  };
}
