/** RFC 9457 problem+json: the one shape of every error the API produces. */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, MAX_FIELD_ERRORS, notFound, type FieldError } from '../lib/errors.js';
import { isDatabaseUnavailable, pgErrorCode } from '../db/errors.js';

interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  errors?: FieldError[];
  omittedErrors?: number;
}

/** A path longer than this (an unknown key of 100 KB) is cut, so the answer stays small. */
const MAX_PATH_LENGTH = 200;
const count = new Intl.NumberFormat('en-US');

/**
 * The problem's `errors`: at most MAX_FIELD_ERRORS of them, each path at most MAX_PATH_LENGTH
 * characters (docs/api.md "Conventions"), so an answer is never much larger than its request.
 */
function listedErrors(errors: readonly FieldError[]): FieldError[] {
  return errors
    .slice(0, MAX_FIELD_ERRORS)
    .map((e) => (e.path.length > MAX_PATH_LENGTH ? { ...e, path: `${e.path.slice(0, MAX_PATH_LENGTH)}…` } : e));
}

export function sendProblem(reply: FastifyReply, error: AppError): FastifyReply {
  const body: Problem = {
    type: `urn:chronicle:problem:${error.code}`,
    title: error.title,
    status: error.status,
    detail: error.message,
  };
  if (error.errors?.length) {
    body.errors = listedErrors(error.errors);
    const omitted = error.errors.length - body.errors.length + error.omittedErrors;
    if (omitted > 0) {
      body.omittedErrors = omitted;
      body.detail = `${error.message} Only the first ${body.errors.length} of ${count.format(body.errors.length + omitted)} errors are listed.`;
    }
  }
  if (error.headers) reply.headers(error.headers);
  // A client past a rate limit with a body ends its connection, so the body it is still sending is
  // not read (docs/operations.md "Rate limit"); a bodiless request keeps its connection.
  const { headers } = reply.request;
  const hasBody = Number(headers['content-length'] ?? 0) > 0 || headers['transfer-encoding'] !== undefined;
  if (error.code === 'rate_limited' && hasBody) reply.header('connection', 'close');
  return reply.code(error.status).type('application/problem+json').send(body);
}

/** Maps anything thrown while handling a request to an AppError; unknown errors become a bare 500. */
function toAppError(error: unknown): AppError | null {
  if (error instanceof AppError) return error;
  if (isDatabaseUnavailable(error))
    return new AppError('unavailable', 'The database is unavailable; try again shortly.', undefined, { 'Retry-After': '5' });
  // SQLSTATE class 22 (data exception: U+0000 in text, a number out of range, ...) can only come
  // from a value that passed the schemas; it is the client's input, never a server fault.
  if (pgErrorCode(error)?.startsWith('22')) {
    return new AppError(
      'validation',
      'A value in the request cannot be stored (for example text containing U+0000, or a number out of range).',
    );
  }
  switch (pgErrorCode(error)) {
    // statement_timeout (DATABASE_STATEMENT_TIMEOUT_MS) cancelled the statement.
    case '57014':
      return new AppError('unavailable', 'The database took too long to answer this request; try again shortly.', undefined, {
        'Retry-After': '5',
      });
    // A row this request refers to was deleted by a concurrent request.
    case '23503':
      return notFound();
    case '23505':
      return new AppError('conflict', 'This conflicts with a resource that already exists.');
    case '40001':
    case '40P01':
      return new AppError('conflict', 'A concurrent change got in the way; try again.');
  }
  const fastifyError = error as FastifyError & { validation?: unknown };
  // The validator compiler (validation.ts) answers with an AppError; this is only a safety net.
  if (fastifyError.validation) return new AppError('validation', 'The request is not valid.');
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('payload_too_large', 'The request body is too large (1 MiB; 8 MiB for a batch of time entries).');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('unsupported_media_type', 'Send the request body as application/json.');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('validation', 'The JSON body is empty.');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new AppError('validation', 'The request body is not valid JSON.');
  }
  if (error instanceof SyntaxError || fastifyError.statusCode === 400) {
    return new AppError('validation', 'The request body is not valid JSON.');
  }
  return null;
}

export function problemHandler(
  error: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
  mapErrors?: (errors: FieldError[]) => FieldError[],
): FastifyReply {
  let appError = toAppError(error);
  if (appError) {
    if (appError.code === 'unavailable') request.log.warn({ err: error }, 'database unavailable');
    if (mapErrors && appError.errors) {
      appError = new AppError(appError.code, appError.message, mapErrors(appError.errors), appError.headers, appError.omittedErrors);
    }
    return sendProblem(reply, appError);
  }
  request.log.error({ err: error }, 'unhandled error');
  return reply
    .code(500)
    .type('application/problem+json')
    .send({
      type: 'urn:chronicle:problem:internal',
      title: 'Internal Server Error',
      status: 500,
      detail: 'Something went wrong on our side.',
    } satisfies Problem);
}

/**
 * The error handler of a batch route whose body is `{ <list>: [...] }`: each field error inside
 * item n (`/<list>/n/...`) also says `index: n`, whether the schema or a rule refused it.
 */
export function batchProblemHandler(list: string) {
  const item = new RegExp(`^/${list}/(\\d+)(?:/|$)`);
  const withIndex = (errors: FieldError[]) =>
    errors.map((e) => {
      const match = item.exec(e.path);
      return match && e.index === undefined ? { ...e, index: Number(match[1]) } : e;
    });
  return (error: unknown, request: FastifyRequest, reply: FastifyReply): void => {
    void problemHandler(error, request, reply, withIndex);
  };
}

/**
 * Sends a JSON document the database already wrote (for example a discussion thread) as it is,
 * without parsing and serialising it again. The route's response schema still documents it.
 */
export function sendJsonText(reply: FastifyReply, json: string): FastifyReply {
  // A string payload with a JSON content type skips Fastify's serialiser.
  return reply.type('application/json; charset=utf-8').send(json);
}
