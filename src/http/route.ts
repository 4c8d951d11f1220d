/**
 * `route()`: one documented endpoint, whole, beside its path: who may call it, what it costs, its
 * schemas, its OpenAPI identity (operationId, summary, and a description honest about who may call
 * it and what a 404 hides) and the problems it may answer. It gives the Fastify route options, and
 * derives the rest: `config`, the problem+json responses, the declared response headers, the
 * `schema` object. Handlers keep their static types from the TypeBox schemas.
 */
import type {
  ContextConfigDefault,
  FastifyReply,
  FastifyRequest,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
  RouteOptions,
} from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { TSchema } from 'typebox';
import { NOT_MODIFIED } from './conditional.js';
import { declareSecretRoute, RESPONSE_HEADERS, type HeaderName } from './response-headers.js';
import { DOCUMENTED_BODY, OPTIONAL_BODY, ProblemSchema } from './schemas.js';
import type { RouteScope } from './types.js';

/** A status a route answers with a problem (application/problem+json). */
export type ProblemStatus = 400 | 401 | 403 | 404 | 409 | 412 | 413 | 415 | 429 | 503;

/**
 * What every route with a token may answer, whatever it does: an invalid request, a missing or
 * insufficient token, what the caller may not see, the rate limit and an overloaded server.
 */
const TOKEN_PROBLEMS: readonly ProblemStatus[] = [400, 401, 403, 404, 429, 503];

type Part = TSchema | undefined;
type Responses = Readonly<Record<number, unknown>>;

/** The schemas of a route, as Fastify's type provider reads them. */
interface RouteSchemas<P extends Part, Q extends Part, B extends Part, H extends Part, R extends Responses> {
  params: P;
  querystring: Q;
  body: B;
  headers: H;
  response: R;
}

type Handler<S extends RouteSchemas<Part, Part, Part, Part, Responses>> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
  S,
  TypeBoxTypeProvider
>;

export interface RouteDefinition<P extends Part, Q extends Part, B extends Part, H extends Part, R extends Responses> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  /** 'read' or 'write' need a token (or session) with that scope; 'public' skips authentication. */
  scope: RouteScope;
  /** Request units against API_RATE_LIMIT; default: by scope (auth.ts RATE_COST). */
  rateCost?: number;
  /** The answer holds a secret (a token, a share link): sent, and declared, with `Cache-Control: no-store`. */
  secret?: boolean;
  /**
   * A read answered with an entity tag and 304 to a matching If-None-Match (conditional.ts):
   * declared with ETag on its 200 and the 304.
   */
  conditional?: boolean;
  /**
   * A hot read that finds the caller's credential in its own statement (auth.ts callerOf, readAs):
   * one statement per request instead of two. Its handler must read through `readAs`. A request
   * that fails validation still gets its credential checked first, so refusals keep their order.
   */
  credentialInRead?: boolean;
  tags: readonly string[];
  operationId: string;
  summary: string;
  description: string;
  params?: P;
  querystring?: Q;
  headers?: H;
  body?: B;
  /** May the body be left out? The document then says it is optional. */
  optionalBody?: boolean;
  /** A request body the route reads without a schema, as the document describes it (the viewer's form). */
  documentedBody?: object;
  /** The answers other than problems, by status. */
  response: R;
  /**
   * Problems beyond those of its scope: a read or write route may answer every one of
   * TOKEN_PROBLEMS; a public route names all of its own.
   */
  problems?: readonly ProblemStatus[];
  /** Headers of its answers beyond those every answer of its kind has (response-headers.ts). */
  responseHeaders?: Readonly<Partial<Record<number, readonly HeaderName[]>>>;
  bodyLimit?: number;
  exposeHeadRoute?: boolean;
  preValidation?: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  errorHandler?: (error: unknown, request: FastifyRequest, reply: FastifyReply) => void;
  handler: Handler<RouteSchemas<P, Q, B, H, R>>;
}

/** The Fastify route options of one endpoint: `app.route(route({ ... }))`. */
export function route<
  P extends Part = undefined,
  Q extends Part = undefined,
  B extends Part = undefined,
  H extends Part = undefined,
  const R extends Responses = Responses,
>(
  definition: RouteDefinition<P, Q, B, H, R>,
): RouteOptions<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
  RouteSchemas<P, Q, B, H, R>,
  TypeBoxTypeProvider
> {
  const { method, url, scope, rateCost, secret, conditional, credentialInRead, tags, operationId, summary, description, handler } =
    definition;
  const problems = [...(scope === 'public' ? [] : TOKEN_PROBLEMS), ...(definition.problems ?? [])];
  const response = {
    ...definition.response,
    ...(conditional ? { 304: NOT_MODIFIED } : {}),
    ...Object.fromEntries(problems.map((status) => [status, ProblemSchema])),
  };
  const responseHeaders = conditional ? withEntityTag(definition.responseHeaders) : definition.responseHeaders;
  let schema: Record<string, unknown> = {
    tags,
    operationId,
    summary,
    description,
    ...defined({ params: definition.params, querystring: definition.querystring, headers: definition.headers, body: definition.body }),
    ...(definition.optionalBody ? { [OPTIONAL_BODY]: true } : {}),
    ...(definition.documentedBody ? { [DOCUMENTED_BODY]: definition.documentedBody } : {}),
    ...(responseHeaders ? { [RESPONSE_HEADERS]: responseHeaders } : {}),
    response,
  };
  if (secret) schema = declareSecretRoute(schema);
  return {
    method,
    url,
    config: { scope, ...defined({ rateCost, secret, conditional, credentialInRead }) },
    schema: schema as unknown as RouteSchemas<P, Q, B, H, R>,
    ...(credentialInRead ? { attachValidation: true } : {}),
    ...defined({
      bodyLimit: definition.bodyLimit,
      exposeHeadRoute: definition.exposeHeadRoute,
      preValidation: definition.preValidation,
      errorHandler: definition.errorHandler,
    }),
    handler: credentialInRead ? credentialFirst(handler) : handler,
  };
}

/**
 * The handler of a `credentialInRead` route, validated after the credential: the auth hook left the
 * credential to the read, so an invalid request has it found on its own before its 400, and a bad
 * token still answers 401 (and a spent budget 429) before anything about the request is said.
 */
function credentialFirst<S extends RouteSchemas<Part, Part, Part, Part, Responses>>(handler: Handler<S>): Handler<S> {
  return async function (this: ThisParameterType<Handler<S>>, request, reply) {
    if (request.validationError) {
      await request.credential?.authenticate();
      throw request.validationError;
    }
    return handler.call(this, request, reply);
  } as Handler<S>;
}

/** A conditional read's headers: ETag on its 200 and its 304 (once, whatever the route named). */
function withEntityTag(
  named: RouteDefinition<Part, Part, Part, Part, Responses>['responseHeaders'],
): Record<number, readonly HeaderName[]> {
  const ok = named?.[200] ?? [];
  return { ...named, 200: ok.includes('ETag') ? ok : [...ok, 'ETag'], 304: ['ETag'] };
}

/** The entries whose value is not undefined: a route option left out stays absent. */
function defined<T extends Record<string, unknown>>(entries: T): Partial<T> {
  return Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== undefined)) as Partial<T>;
}
