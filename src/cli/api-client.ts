/**
 * The CLI's way to a Chronicle server: JSON over HTTP with a bearer token, from CHRONICLE_URL and
 * CHRONICLE_TOKEN. Any answer other than 2xx becomes an ApiError carrying the problem+json body.
 */
import { UsageError } from './cli-errors.js';

export interface Problem {
  type?: string;
  title?: string;
  status: number;
  detail?: string;
  errors?: { path: string; message: string; index?: number }[];
}

export class ApiError extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly problem: Problem,
  ) {
    super(`${method} ${path}: ${problem.status} ${problem.detail ?? problem.title ?? ''}`.trim());
  }
}

export interface ApiClient {
  readonly baseUrl: string;
  get<T>(path: string, query?: Record<string, string | number>): Promise<T>;
  post<T>(path: string, body?: unknown): Promise<T>;
  put<T>(path: string, body?: unknown): Promise<T>;
}

/** The client for CHRONICLE_URL and CHRONICLE_TOKEN; a missing or malformed setting is a usage error. */
export function clientFromEnv(env: NodeJS.ProcessEnv = process.env): ApiClient {
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
  return createClient(base.toString().replace(/\/+$/, ''), token);
}

export function createClient(baseUrl: string, token: string): ApiClient {
  async function call<T>(method: string, path: string, body?: unknown, query?: Record<string, string | number>): Promise<T> {
    const url = new URL(`${baseUrl}${path}`);
    for (const [key, value] of Object.entries(query ?? {})) url.searchParams.set(key, String(value));
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new Error(`Cannot reach ${baseUrl}: ${cause?.code ?? cause?.message ?? (error as Error).message}`, { cause: error });
    }
    const text = await res.text();
    if (!res.ok) {
      let problem: Problem = { status: res.status, detail: text.slice(0, 500) };
      try {
        problem = { ...(JSON.parse(text) as Problem), status: res.status };
      } catch {
        // Not problem+json (a proxy's page, say): keep the start of the text.
      }
      throw new ApiError(method, path, problem);
    }
    return (text ? JSON.parse(text) : undefined) as T;
  }
  return {
    baseUrl,
    get: (path, query) => call('GET', path, undefined, query),
    post: (path, body) => call('POST', path, body),
    put: (path, body) => call('PUT', path, body),
  };
}
