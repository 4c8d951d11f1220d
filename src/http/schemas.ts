/** Schema pieces shared by several route tables. */
import { Type, type TSchema } from 'typebox';
import { MAX_FIELD_ERRORS } from '../lib/errors.js';

export const Id = Type.String({ minLength: 1, maxLength: 64, description: 'Opaque id (UUID v7).' });
export const Instant = Type.String({ format: 'date-time', description: 'ISO 8601 instant in UTC with milliseconds.' });
/**
 * The bound of a date or date-time in a request: far above the longest legitimate one (35
 * characters), so that anything shorter gets the message saying which form it lacks.
 */
export const DATE_TEXT_MAX = 64;
export const CalendarDate = Type.String({
  format: 'date',
  pattern: '^\\d{4}-\\d{2}-\\d{2}$',
  maxLength: DATE_TEXT_MAX,
  description: 'YYYY-MM-DD',
});
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const IdParams = Type.Object({ id: Id });

export const ProblemSchema = Type.Object(
  {
    type: Type.String(),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    errors: Type.Optional(
      Type.Array(
        Type.Object({
          path: Type.String(),
          message: Type.String(),
          index: Type.Optional(Type.Integer({ description: 'Batch requests: the position of the refused item.' })),
        }),
        {
          maxItems: MAX_FIELD_ERRORS,
          description: `Each invalid field (a JSON pointer into the request) and what it takes; at most ${MAX_FIELD_ERRORS}.`,
        },
      ),
    ),
    omittedErrors: Type.Optional(
      Type.Integer({
        minimum: 1,
        description: `How many more invalid fields were found than \`errors\` lists (only when it lists its ${MAX_FIELD_ERRORS}).`,
      }),
    ),
  },
  { $id: 'Problem', description: 'RFC 9457 problem details (application/problem+json).' },
);

export const NoContent = Type.Null({ description: 'No content' });

/**
 * Marks a route schema whose body may be left out; the OpenAPI document then says so
 * (@fastify/swagger marks every body required, see app.ts).
 */
export const OPTIONAL_BODY = 'x-optional-body';

/**
 * An OpenAPI request body a route reads without a body schema (the public viewer's form, whose
 * every flaw must answer the viewer's 404 page, never a validation error); app.ts moves it into
 * the document as the operation's requestBody.
 */
export const DOCUMENTED_BODY = 'x-request-body';
