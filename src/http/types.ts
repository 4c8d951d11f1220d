import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { FastifyPluginCallbackTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { TSchema } from 'typebox';
import type { AppContext } from '../context.js';

/** The Fastify instance with TypeBox typing, as every route module receives it. */
export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** The scope a route needs, declared in its route definition (`config.scope`); 'public' skips auth. */
export type RouteScope = 'read' | 'write' | 'public';

declare module 'fastify' {
  interface FastifyContextConfig {
    scope?: RouteScope;
    /** Request units this route costs against API_RATE_LIMIT; default: by scope (auth.ts RATE_COST). */
    rateCost?: number;
    /** The response carries a secret (a token, a share link): it gets `Cache-Control: no-store`. */
    secret?: boolean;
    /** A read with an entity tag, answered 304 to a matching If-None-Match (conditional.ts). */
    conditional?: boolean;
    /** The route's read finds the caller's credential in its own statement (auth.ts callerOf, readAs). */
    credentialInRead?: boolean;
  }
}

/** A feature's routes: a Fastify plugin that gets the application's context. */
export type FeatureRoutes = FastifyPluginCallbackTypebox<{ ctx: AppContext }>;

/** A group of routes as app.ts lists it: the plugin, where it lives, and the named schemas it owns. */
export interface Feature {
  readonly prefix: string;
  readonly routes: FeatureRoutes;
  /** Its named schemas, in the order they appear in the OpenAPI document's `components.schemas`. */
  readonly schemas?: readonly TSchema[];
}
