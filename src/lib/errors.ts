/**
 * One error type for everything the service refuses on purpose. Services throw it; the one error
 * handler in app.ts turns it into RFC 9457 problem+json.
 */
export type ErrorCode =
  | 'validation'
  | 'unauthorized'
  | 'forbidden'
  | 'insufficient_scope'
  | 'not_found'
  | 'conflict'
  | 'precondition_failed'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'unavailable';

export interface FieldError {
  /** JSON pointer into the request, e.g. `/filters/tags/3`. */
  path: string;
  message: string;
  /** The position of the refused item in a batch request (e.g. `POST /time-entries/batch`). */
  index?: number;
}

/**
 * The most field errors one problem lists (docs/api.md "Conventions"); how many more there were is
 * its `omittedErrors`. Hostile input can be wrong in 100,000 places: the answer stays small.
 */
export const MAX_FIELD_ERRORS = 20;

/**
 * Field errors gathered with a cap: the first `MAX_FIELD_ERRORS` are kept, the rest only counted,
 * so an input wrong in every one of its items costs a count, not a list.
 */
export class FieldErrorList {
  readonly kept: FieldError[] = [];
  omitted = 0;

  /** Whether another entry would be kept (so the caller may skip building it). */
  get full(): boolean {
    return this.kept.length >= MAX_FIELD_ERRORS;
  }

  get total(): number {
    return this.kept.length + this.omitted;
  }

  add(path: string, message: string): void {
    if (this.full) this.omitted += 1;
    else this.kept.push({ path, message });
  }

  /** Counts one entry without building it (when `full`). */
  skip(): void {
    this.omitted += 1;
  }

  addAll(other: FieldErrorList): void {
    for (const entry of other.kept) this.add(entry.path, entry.message);
    this.omitted += other.omitted;
  }
}

const STATUS: Record<ErrorCode, number> = {
  validation: 400,
  unauthorized: 401,
  forbidden: 403,
  insufficient_scope: 403,
  not_found: 404,
  conflict: 409,
  precondition_failed: 412,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  unavailable: 503,
};

const TITLE: Record<ErrorCode, string> = {
  validation: 'Bad Request',
  unauthorized: 'Unauthorized',
  forbidden: 'Forbidden',
  insufficient_scope: 'Forbidden',
  not_found: 'Not Found',
  conflict: 'Conflict',
  precondition_failed: 'Precondition Failed',
  payload_too_large: 'Payload Too Large',
  unsupported_media_type: 'Unsupported Media Type',
  rate_limited: 'Too Many Requests',
  unavailable: 'Service Unavailable',
};

export class AppError extends Error {
  readonly status: number;
  readonly title: string;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly errors?: FieldError[],
    readonly headers?: Record<string, string>,
    /** Field errors found beyond `errors` and not listed (a capped list, `FieldErrorList`). */
    readonly omittedErrors = 0,
  ) {
    super(message);
    this.status = STATUS[code];
    this.title = TITLE[code];
  }
}

export const badRequest = (detail: string, errors?: FieldError[]) => new AppError('validation', detail, errors);
/** One body for every hidden or missing resource, so a 404 never tells which it was. */
export const notFound = () => new AppError('not_found', 'The resource does not exist or you may not see it.');
export const forbidden = (detail: string) => new AppError('forbidden', detail);
export const conflict = (detail: string) => new AppError('conflict', detail);
export const preconditionFailed = (detail: string) => new AppError('precondition_failed', detail);
