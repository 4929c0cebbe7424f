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
  }
}
