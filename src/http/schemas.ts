/** Schema pieces shared by several route tables. */
import { Type, type TSchema } from 'typebox';

export const Id = Type.String({ minLength: 1, maxLength: 64, description: 'Opaque id (UUID v7).' });
export const Instant = Type.String({ format: 'date-time', description: 'ISO 8601 instant in UTC with milliseconds.' });
export const CalendarDate = Type.String({ format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD' });
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
      ),
    ),
  },
  { $id: 'Problem', description: 'RFC 9457 problem details (application/problem+json).' },
);

/** The error responses every authenticated route may give, for the OpenAPI document. */
export const problemResponses = {
  400: ProblemSchema,
  401: ProblemSchema,
  403: ProblemSchema,
  404: ProblemSchema,
  429: ProblemSchema,
  503: ProblemSchema,
} as const;

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
