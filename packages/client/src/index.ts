/**
 * Chronicle's typed client: openapi-fetch over the types generated from Chronicle's OpenAPI
 * document (schema.ts), plus what the generated part cannot give: problem+json answers as a
 * typed `ChronicleError`, and `pages`, which walks a paged list to its end.
 *
 *   const chronicle = createChronicleClient({ baseUrl: 'http://localhost:3000', token });
 *   const report = await unwrap(chronicle.GET('/api/v1/reports/{id}', { params: { path: { id } } }));
 *   for await (const message of pages(chronicle, '/api/v1/inbox')) console.log(message.reportName);
 */
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { paths } from './schema.js';

export type { components, operations, paths } from './schema.js';

export type ChronicleClient = Client<paths>;

export interface ChronicleClientOptions {
  /** The server's origin, e.g. `http://localhost:3000` (its PUBLIC_BASE_URL). */
  baseUrl: string;
  /** A bearer token (`chr_…`); without one only public routes answer. */
  token?: string;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /** A fetch implementation; the global one by default. */
  fetch?: ClientOptions['fetch'];
}

/** The client: every path and operation of the API, typed from the OpenAPI document. */
export function createChronicleClient(options: ChronicleClientOptions): ChronicleClient {
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { ...options.headers, ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}

/** One refused field of a validation problem: a JSON pointer, the reason, and a batch row's index. */
export interface ProblemFieldError {
  path: string;
  message: string;
  index?: number;
}

/** An RFC 9457 problem, as every Chronicle error is sent. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail?: string;
  errors?: ProblemFieldError[];
}

/** A Chronicle error answer: the problem's fields, plus `retryAfter` (seconds) on 429 and 503. */
export class ChronicleError extends Error {
  readonly status: number;
  readonly type: string;
  readonly title: string;
  readonly detail: string | undefined;
  readonly errors: ProblemFieldError[];
  readonly retryAfter: number | undefined;

  constructor(problem: Problem, response?: Response) {
    super(problem.detail ? `${problem.status} ${problem.title}: ${problem.detail}` : `${problem.status} ${problem.title}`);
    this.name = 'ChronicleError';
    this.status = problem.status;
    this.type = problem.type;
    this.title = problem.title;
    this.detail = problem.detail;
    this.errors = problem.errors ?? [];
    const retryAfter = Number(response?.headers.get('retry-after') ?? Number.NaN);
    this.retryAfter = Number.isFinite(retryAfter) ? retryAfter : undefined;
  }
}

function isProblem(value: unknown): value is Problem {
  if (typeof value !== 'object' || value === null) return false;
  const { type, title, status } = value as Record<string, unknown>;
  return typeof type === 'string' && typeof title === 'string' && typeof status === 'number';
}

/** What every openapi-fetch call resolves to. */
interface FetchResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/**
 * The answer's body, or a `ChronicleError` thrown for any error answer (a body that is not a
 * problem, from a proxy say, still gives one with the HTTP status). A 204 gives `undefined`.
 */
export async function unwrap<T>(request: Promise<FetchResult<T>>): Promise<T> {
  const { data, error, response } = await request;
  if (response.ok) return data as T;
  const problem = isProblem(error)
    ? error
    : {
        type: 'about:blank',
        title: response.statusText || 'Error',
        status: response.status,
        detail: typeof error === 'string' ? error : undefined,
      };
  throw new ChronicleError(problem, response);
}

/** The paths whose GET answers a page of a list: `limit`/`offset` in, an array out. */
export type PagedPath = {
  [P in keyof paths]: paths[P] extends {
    get: {
      parameters: { query?: { limit?: number; offset?: number } };
      responses: { 200: { content: { 'application/json': unknown[] } } };
    };
  }
    ? P
    : never;
}[keyof paths];

type PagedOperation<P extends PagedPath> = paths[P]['get'];
/** One item of a paged list. */
export type PageItem<P extends PagedPath> = PagedOperation<P>['responses'][200]['content']['application/json'][number];
type PageParameters<P extends PagedPath> = Omit<PagedOperation<P>['parameters'], 'query'> & {
  query?: Omit<NonNullable<PagedOperation<P>['parameters']['query']>, 'offset'>;
};

/** The largest page the API serves. */
export const MAX_PAGE_SIZE = 200;

/**
 * Every item of a paged list, page after page (`limit` is the page size, 200 unless given): the
 * server's `Link: rel="next"` says whether another page follows, and the next offset is counted
 * here, so a PUBLIC_BASE_URL that differs from `baseUrl` (a proxy) does not matter.
 */
export async function* pages<P extends PagedPath>(
  client: ChronicleClient,
  path: P,
  ...[params]: object extends PageParameters<P> ? [params?: PageParameters<P>] : [params: PageParameters<P>]
): AsyncGenerator<PageItem<P>, void, undefined> {
  const query = (params?.query ?? {}) as { limit?: number };
  const limit = query.limit ?? MAX_PAGE_SIZE;
  // openapi-fetch cannot check a path chosen at run time against its parameters; `P` did that.
  const get = client.GET as unknown as (path: string, init: unknown) => Promise<FetchResult<PageItem<P>[]>>;
  for (let offset = 0; ;) {
    const items = await unwrapPage(get(path, { params: { ...params, query: { ...query, limit, offset } } }));
    yield* items.data;
    if (!items.more || items.data.length === 0) return;
    offset += items.data.length;
  }
}

async function unwrapPage<T>(request: Promise<FetchResult<T[]>>): Promise<{ data: T[]; more: boolean }> {
  const result = await request;
  const data = await unwrap(Promise.resolve(result));
  return { data, more: /rel="?next"?/.test(result.response.headers.get('link') ?? '') };
}
