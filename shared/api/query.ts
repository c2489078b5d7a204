import * as z from 'zod';

/**
 * How the OpenAPI document describes a query parameter whose text is parsed into a number or a boolean:
 * the wire carries a string, but a typed client should pass `limit: 5`, not `limit: '5'`, so the document
 * states the parsed type (openapi.ts applies these in place of the string schema). Clones made by
 * `.describe()` inherit the entry.
 */
export const queryParamDocs = z.registry<Record<string, unknown>>();

/**
 * Query parameters arrive as strings. These builders turn them into typed values with field errors
 * that read well, and each route's query is `z.strictObject`, so an unknown parameter is a 400.
 */
export const limitParam = (cap = 50, fallback = 20) => {
  const param = z
    .string()
    .regex(/^[0-9]+$/, 'must be a whole number of at least 1')
    .transform(Number)
    .refine((n) => n >= 1, 'must be a whole number of at least 1')
    .transform((n) => Math.min(n, cap))
    .optional()
    .transform((n) => n ?? fallback);
  queryParamDocs.add(param, {
    type: 'integer',
    minimum: 1,
    maximum: cap,
    default: fallback,
    description: `Page size; a larger value is read as ${cap}.`,
  });
  return param;
};

export const cursorParam = () => z.string().min(1).max(4096).optional();

export const boolParam = () => {
  const param = z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional();
  queryParamDocs.add(param, { type: 'boolean' });
  return param;
};

export const pageQuery = (cap = 50, fallback = 20) => ({ cursor: cursorParam(), limit: limitParam(cap, fallback) });
