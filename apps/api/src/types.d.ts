import type { Kysely } from 'kysely';
import type { Database } from './db/schema';
import type { Caller } from './features/access/caller';
import type { Config } from './config';
import type { Services } from './services';

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
  }
}
