/**
 * Request validation: bodies are checked strictly (no type coercion, unknown properties refused),
 * while query strings and path parameters are coerced from their text form.
 */
import { Ajv, type ErrorObject } from 'ajv';
import formatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import type { FieldError } from '../lib/errors.js';
import { COMPONENT_SCHEMAS } from './components.js';

// ajv-formats is CommonJS with a default export; under NodeNext the callable sits on `.default`.
const addFormats = formatsModule.default;

function makeAjv(coerceTypes: boolean | 'array'): Ajv {
  const ajv = new Ajv({
    coerceTypes,
    useDefaults: true,
    removeAdditional: false,
    allErrors: true,
    strict: false,
  });
  addFormats(ajv, ['date', 'date-time', 'email', 'uri']);
  // Route bodies refer to the named schemas (`{ $ref: 'ReportBody#' }`, components.ts).
  for (const schema of COMPONENT_SCHEMAS) ajv.addSchema(schema);
  return ajv;
}

const bodyAjv = makeAjv(false);
const textAjv = makeAjv('array');

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? bodyAjv : textAjv;
  return ajv.compile(schema as object);
};

/** Turns Ajv errors into `{ path, message }` entries with JSON-pointer paths. */
export function toFieldErrors(errors: ErrorObject[], prefix = ''): FieldError[] {
  const seen = new Set<string>();
  const out: FieldError[] = [];
  for (const error of errors) {
    let path = error.instancePath;
    let message = error.message ?? 'is invalid';
    if (error.keyword === 'additionalProperties') {
      const property = (error.params as { additionalProperty: string }).additionalProperty;
      path = `${path}/${property.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      message = 'is not an allowed property';
    } else if (error.keyword === 'required') {
      const property = (error.params as { missingProperty: string }).missingProperty;
      path = `${path}/${property}`;
      message = 'is required';
    } else if (error.keyword === 'anyOf' || error.keyword === 'oneOf') {
      // The branch errors already say what is wrong; the summary adds nothing.
      if (errors.some((e) => e !== error && e.instancePath.startsWith(error.instancePath))) continue;
    }
    const fullPath = `${prefix}${path}`;
    const key = `${fullPath}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ path: fullPath, message });
  }
  return out;
}
