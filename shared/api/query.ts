import * as z from 'zod';

/**
 * Query parameters arrive as strings. These builders turn them into typed values with field errors
 * that read well, and each route's query is `z.strictObject`, so an unknown parameter is a 400.
 */
export const limitParam = (cap = 50, fallback = 20) =>
  z
    .string()
    .regex(/^[0-9]+$/, 'must be a whole number of at least 1')
    .transform(Number)
    .refine((n) => n >= 1, 'must be a whole number of at least 1')
    .transform((n) => Math.min(n, cap))
    .optional()
    .transform((n) => n ?? fallback);

export const cursorParam = () => z.string().min(1).max(4096).optional();

export const boolParam = () =>
  z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional();

export const pageQuery = (cap = 50, fallback = 20) => ({ cursor: cursorParam(), limit: limitParam(cap, fallback) });
