/** pino settings: secrets never reach the log (Authorization headers, share tokens in paths). */
import type { FastifyServerOptions } from 'fastify';

const SHARE_PATH = /\/share\/[^/?#]*/g;

/** Replaces the capability token of a public share URL; the URL is the secret. */
export function redactUrl(url: string): string {
  return url.replace(SHARE_PATH, '/share/[redacted]');
}

export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', '*.passcode', '*.token'], censor: '[redacted]' },
    serializers: {
      req: (request: { method: string; url: string; id: string }) => ({
        method: request.method,
        url: redactUrl(request.url),
        id: request.id,
      }),
    },
  };
}
