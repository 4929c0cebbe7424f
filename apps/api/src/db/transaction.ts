import type { Transaction } from 'kysely';
import type { Database } from './schema';

/**
 * A view of a transaction for helpers that open their own (`db.transaction().execute(fn)`): their work runs
 * inside ours, so the whole change commits or rolls back as one.
 */
export function inTransaction(trx: Transaction<Database>): Transaction<Database> {
  return new Proxy(trx, {
    get(target, property) {
      if (property === 'transaction')
        return () => ({ execute: <T>(fn: (t: Transaction<Database>) => Promise<T>) => fn(target) });
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
