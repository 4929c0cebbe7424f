import type { Kysely } from 'kysely';
import type { Database } from './db/schema';
import type { Caller } from './features/access/caller';
import type { Config } from './config';
import type { Services } from './services';
import type { ApiKeyScope } from '@portal/contracts/api-keys';
import type { VerifierAccess } from './features/access/verifier';

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<Database>;
    config: Config;
    services: Services;
  }
  interface FastifyRequest {
    /** The signed-in caller; set for every route that is not `config.public`. */
    caller?: Caller;
    /**
     * Where this request's dashboard and list reads go (storage/read-routing.ts): set with the caller; the read
     * replica on a route with `config.reads: 'replica'` unless the caller's own writes are not there yet, else the
     * primary (`app.db`).
     */
    reads?: Kysely<Database>;
  }
  interface FastifyContextConfig {
    /** Reachable without a bearer token. */
    public?: boolean;
    /**
     * The API key scopes that may call this route (features/api-keys); none by default, so a new route is closed to
     * keys until it says otherwise. A key without one of them gets 403 before the handler runs (app.ts).
     */
    apiKeyScopes?: readonly ApiKeyScope[];
    /**
     * What a Verifier may do here (features/access/verifier.ts): 'read' a GET over the ledger of its years, 'own' its
     * own records; none by default, so a new route is closed to verifiers (403 before the handler, app.ts).
     */
    verifier?: VerifierAccess;
    /**
     * A dashboard or list read (docs/decisions/0126-reads-off-the-primary.md): its handler reads through
     * `request.reads`, which the storage layer points at the read replica when there is one and the caller's own
     * writes are there; and the route writes nothing, so calling it (a POST that only reads included) is no write.
     */
    reads?: 'replica';
  }
}
