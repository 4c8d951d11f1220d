/**
 * The CLI's way to a Chronicle server: Chronicle's typed client (packages/client) for
 * CHRONICLE_URL and CHRONICLE_TOKEN. Every error answer becomes the client's one error type,
 * `ChronicleError`, carrying the problem+json body.
 */
import { createChronicleClient, type ChronicleClient } from '../../packages/client/src/index.js';
import { UsageError } from './cli-errors.js';

export { ChronicleError, unwrap, type ChronicleClient } from '../../packages/client/src/index.js';

/** The client for CHRONICLE_URL and CHRONICLE_TOKEN; a missing or malformed setting is a usage error. */
export function clientFromEnv(env: NodeJS.ProcessEnv = process.env): ChronicleClient {
  const url = env.CHRONICLE_URL?.trim();
  const token = env.CHRONICLE_TOKEN?.trim();
  if (!url) throw new UsageError('CHRONICLE_URL is not set (the server to talk to, e.g. http://127.0.0.1:3000).');
  if (!token) throw new UsageError('CHRONICLE_TOKEN is not set (an API token; see `chronicle tokens create --help`).');
  let base: URL;
  try {
    base = new URL(url);
  } catch {
    throw new UsageError(`CHRONICLE_URL is not a valid URL: ${url}`);
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new UsageError('CHRONICLE_URL must start with http:// or https://');
  const baseUrl = base.toString().replace(/\/+$/, '');
  return createChronicleClient({ baseUrl, token, fetch: reaching(baseUrl) });
}

/** fetch, with a server that cannot be reached named in the error instead of "fetch failed". */
function reaching(baseUrl: string): (request: Request) => Promise<Response> {
  return async (request) => {
    try {
      return await fetch(request);
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new Error(`Cannot reach ${baseUrl}: ${cause?.code ?? cause?.message ?? (error as Error).message}`, { cause: error });
    }
  };
}
