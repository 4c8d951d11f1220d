/** pino settings: secrets never reach the log (Authorization headers, share tokens, SQL parameters). */
import type { FastifyBaseLogger, FastifyRequest, FastifyServerOptions } from 'fastify';
import pino from 'pino';

const SHARE_SEGMENT = /\/+share(?=[/?#]|$)/i;

function decodeOnce(url: string): string {
  try {
    return decodeURIComponent(url);
  } catch {
    return url;
  }
}

/**
 * Cuts a URL at a `/share` segment, in whatever case or percent-encoding it arrives: the rest of
 * a share URL is the capability token, and the URL is the secret.
 */
export function redactUrl(url: string): string {
  const raw = SHARE_SEGMENT.exec(url);
  if (raw) return `${url.slice(0, raw.index)}/share/[redacted]`;
  const decoded = decodeOnce(url);
  return SHARE_SEGMENT.test(decoded) ? '/[redacted]' : url;
}

/** The URL as logged: the route pattern for the public viewer, otherwise the redacted URL. */
export function loggedUrl(request: FastifyRequest): string {
  const route = request.routeOptions.url;
  return route?.startsWith('/share') ? route : redactUrl(request.url);
}

type SerializedError = ReturnType<typeof pino.stdSerializers.err> & Record<string, unknown>;

/**
 * Errors without their data: Drizzle puts every query parameter (hashes, encrypted tokens, user
 * text) into its error message and `params`, and PostgreSQL's `detail` repeats key values.
 */
export function serializeError(error: Error): SerializedError {
  const out = pino.stdSerializers.err(error) as SerializedError;
  if (typeof out.message === 'string') out.message = out.message.split('\nparams:')[0] ?? '';
  if (typeof out.stack === 'string') out.stack = out.stack.replace(/\nparams:[^\n]*/g, '');
  for (const key of ['params', 'query', 'detail', 'where', 'internalQuery', 'parameters']) Reflect.deleteProperty(out, key);
  const cause = (error as { cause?: unknown }).cause;
  if (cause && typeof cause === 'object') {
    const c = cause as { name?: string; message?: string; code?: string; constraint?: string };
    out.cause = { type: c.name, message: c.message, code: c.code, constraint: c.constraint } as never;
  }
  return out;
}

export function loggerOptions(level: string, pretty = prettyByDefault()): FastifyServerOptions['logger'] {
  return {
    level,
    // On a terminal in development, lines for people; everywhere else, one JSON object per line.
    ...(pretty ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } } } : {}),
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', '*.passcode', '*.token'], censor: '[redacted]' },
    serializers: {
      err: serializeError,
      req: (request: { method: string; url: string; id: string }) => ({
        method: request.method,
        url: redactUrl(request.url),
        id: request.id,
      }),
    },
  };
}

/** Human-readable logs when stdout is a terminal and NODE_ENV is not `production`. */
function prettyByDefault(): boolean {
  return process.stdout.isTTY && process.env.NODE_ENV !== 'production';
}

/**
 * Whether `log` writes lines of `level`: its level is that one or below (`silent`, or a level
 * pino does not know, writes nothing).
 */
export function writesLevel(log: FastifyBaseLogger, level: 'debug' | 'info'): boolean {
  const current = pino.levels.values[log.level];
  return current !== undefined && current <= (pino.levels.values[level] ?? 0);
}
