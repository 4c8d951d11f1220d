import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from '../config.js';
import type { Database, Db } from '../db/database.js';
import type { Clock } from '../lib/clock.js';
import type { RenderPool } from '../render/render-pool.js';

/** The Fastify instance with TypeBox typing, as every route module receives it. */
export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** What services need from the outside world; built once in buildApp. */
export interface AppContext {
  readonly config: Config;
  readonly database: Database;
  readonly db: Db;
  readonly clock: Clock;
  /** AES-256-GCM key for share tokens at rest. */
  readonly shareKey: Buffer;
  /** Worker threads that render Liquid templates. */
  readonly renderer: RenderPool;
}

/** The scope a route needs, declared in its route definition (`config.scope`); 'public' skips auth. */
export type RouteScope = 'read' | 'write' | 'public';

declare module 'fastify' {
  interface FastifyContextConfig {
    scope?: RouteScope;
  }
}
