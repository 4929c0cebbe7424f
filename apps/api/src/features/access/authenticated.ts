import type {
  ContextConfigDefault,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchema,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteShorthandOptions,
} from 'fastify';
import type { ResolveFastifyReplyReturnType } from 'fastify/types/type-provider';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { AppError } from '../../errors';
import type { Caller } from './caller';

type ShorthandOptions<S extends FastifySchema> = RouteShorthandOptions<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
  S,
  ZodTypeProvider
>;

type RouteOptions<S extends FastifySchema> = Omit<ShorthandOptions<S>, 'config'> & {
  /** An authenticated route is never public (`config.public`): public routes are registered on the app itself. */
  config?: Omit<NonNullable<ShorthandOptions<S>['config']>, 'public'> & { public?: never };
};

/** The request of an authenticated route: its schema's params, query and body, and the caller, always there. */
export type AuthenticatedRequest<S extends FastifySchema> = FastifyRequest<
  RouteGenericInterface,
  RawServerDefault,
  RawRequestDefaultExpression,
  S,
  ZodTypeProvider
> & {
  readonly caller: Caller;
  /** Where the route's dashboard and list reads go (app.ts, storage/read-routing.ts): the replica or the primary. */
  readonly reads: Kysely<Database>;
};

export type AuthenticatedHandler<S extends FastifySchema> = (
  request: AuthenticatedRequest<S>,
  reply: FastifyReply<
    RouteGenericInterface,
    RawServerDefault,
    RawRequestDefaultExpression,
    RawReplyDefaultExpression,
    ContextConfigDefault,
    S,
    ZodTypeProvider
  >,
) => ResolveFastifyReplyReturnType<ZodTypeProvider, S, RouteGenericInterface>;

type Shorthand = <const S extends FastifySchema>(
  url: string,
  options: RouteOptions<S>,
  handler: AuthenticatedHandler<S>,
) => void;

/** Routes whose handlers receive the signed-in caller (docs/decisions/0070-where-things-go.md). */
export interface AuthenticatedRoutes {
  get: Shorthand;
  post: Shorthand;
  put: Shorthand;
  delete: Shorthand;
  patch: Shorthand;
}

/** A request whose caller is known: for helpers that an authenticated route hands its request to. */
export type WithCaller<R extends FastifyRequest = FastifyRequest> = R & { readonly caller: Caller };

const signIn = () => new AppError('UNAUTHORIZED', 'Sign in to continue');

/**
 * The authenticated scope of a feature's routes. The app's authentication hook (app.ts) resolves the caller of every
 * route that is not `config.public` (a missing or refused token answers 401 before any handler runs); a route
 * registered here gets that caller typed, `request.caller: Caller`, so a handler cannot use a caller that was never
 * authenticated, and the route cannot be made public by mistake.
 */
export function authenticatedRoutes(app: FastifyInstance): AuthenticatedRoutes {
  const server = app.withTypeProvider<ZodTypeProvider>();
  const shorthand =
    (method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH'): Shorthand =>
    (url, options, handler) => {
      server.route({
        ...(options as object),
        method,
        url,
        handler: (request, reply) => {
          if (!request.caller || !request.reads) throw signIn();
          return handler(request as never, reply as never);
        },
      });
    };
  return {
    get: shorthand('GET'),
    post: shorthand('POST'),
    put: shorthand('PUT'),
    delete: shorthand('DELETE'),
    patch: shorthand('PATCH'),
  };
}
