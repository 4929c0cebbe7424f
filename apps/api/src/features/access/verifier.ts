import { z } from 'zod';
import { forbidden } from '../../errors';
import type { Caller } from './caller';

/**
 * What a Verifier may reach (docs/decisions/0115-verifier.md), decided once for every route by the app's
 * authentication hook (app.ts), before the schemas and the handler: a route is closed to verifiers unless its
 * `config.verifier` opens it, as a route is closed to API keys unless its `apiKeyScopes` name one.
 *
 * - 'read': a GET over the ledger and its evidence (voyages, fuel, bunker delivery notes, soundings, the
 *   reconciliation, the DCS report, the CII, the record book, inspection packs with the originals); a verifier's
 *   period (`year`, or `from` and `to`) must lie in the years it is invited to, and a route that takes a period
 *   needs one from a verifier. Which ships it sees is policy.ts's rule (its organization's own ships).
 * - 'own': what a verifier does itself: its verification records, its profile, signing out.
 *
 * Everything else, every write of the ledger among it, answers 403 with the error schema.
 */
export type VerifierAccess = 'read' | 'own';

export const VERIFIER_READS = { verifier: 'read' } as const;
export const VERIFIER_OWN = { verifier: 'own' } as const;
/**
 * A read of the ledger and what is derived from it (the DCS report, the CII, EU ETS, FuelEU, UK ETS): open to API
 * keys with `reports:read` and to verifiers within their years.
 */
export const LEDGER_READS = { apiKeyScopes: ['reports:read'] as const, ...VERIFIER_READS };

export const VERIFIER_READ_ONLY_TEXT = 'A verifier may only read the ledger and record the verification';
export const VERIFIER_YEAR_TEXT = 'You are invited to verify other years than this period';
export const VERIFIER_PERIOD_TEXT = 'Give the period: a verifier reads the years it is invited to';

const PERIOD_KEYS = ['year', 'from', 'to'] as const;

/** The keys of a route's query schema that give a period. */
function periodKeysOf(querystring: unknown): string[] {
  if (!(querystring instanceof z.ZodObject)) return [];
  return PERIOD_KEYS.filter((key) => key in querystring.shape);
}

const yearOf = (value: string): number | null => {
  const time = Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value);
  return Number.isFinite(time) ? new Date(time).getUTCFullYear() : null;
};

/** Refuses the request of a Verifier that its route does not open to it (no-op for every other caller). */
export function checkVerifierRequest(
  caller: Caller,
  request: { method: string; query: unknown; access: VerifierAccess | undefined; querystring: unknown },
): void {
  if (caller.role !== 'Verifier' || caller.apiKey) return;
  const { access } = request;
  if (!access || (access === 'read' && request.method !== 'GET')) throw forbidden(VERIFIER_READ_ONLY_TEXT);
  if (access !== 'read') return;
  const keys = periodKeysOf(request.querystring);
  if (!keys.length) return;
  const query = (request.query ?? {}) as Record<string, unknown>;
  const given = keys.filter((k) => typeof query[k] === 'string' && query[k] !== '');
  if (!given.length) throw forbidden(VERIFIER_PERIOD_TEXT);
  const years = new Set(caller.verifierYears ?? []);
  const yearsOf = given.map((key) => {
    const value = String(query[key]);
    if (key === 'year') return Number(value);
    const year = yearOf(value);
    // Days are inclusive; an instant's end is exclusive, so New Year's midnight closes the year before.
    return key === 'to' && year !== null && /^\d{4}-01-01T00:00:00(\.0+)?Z$/.test(value) ? year - 1 : year;
  });
  if (yearsOf.some((y) => y === null || !Number.isInteger(y))) throw forbidden(VERIFIER_YEAR_TEXT);
  const first = Math.min(...(yearsOf as number[]));
  const last = Math.max(...(yearsOf as number[]));
  for (let y = first; y <= last; y++) if (!years.has(y)) throw forbidden(VERIFIER_YEAR_TEXT);
}
