import * as z from '../util/zod.ts';

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
  const param = z.pipe(
    z.optional(
      z.pipe(
        z
          .pipe(z.string().check(z.regex(/^[0-9]+$/, 'must be a whole number of at least 1')), z.transform(Number))
          .check(z.refine((n) => n >= 1, 'must be a whole number of at least 1')),
        z.transform((n) => Math.min(n, cap)),
      ),
    ),
    z.transform((n) => n ?? fallback),
  );
  queryParamDocs.add(param, {
    type: 'integer',
    minimum: 1,
    maximum: cap,
    default: fallback,
    description: `Page size; a larger value is read as ${cap}.`,
  });
  return param;
};

export const cursorParam = () => z.optional(z.string().check(z.minLength(1)).check(z.maxLength(4096)));

export const boolParam = () => {
  const param = z.optional(
    z.pipe(
      z.enum(['true', 'false']),
      z.transform((v) => v === 'true'),
    ),
  );
  queryParamDocs.add(param, { type: 'boolean' });
  return param;
};

export const pageQuery = (cap = 50, fallback = 20) => ({ cursor: cursorParam(), limit: limitParam(cap, fallback) });

/**
 * The `Link` header of a time-bounded plain-array list (decisions §4): at most 500 items an answer; when
 * more match, the same request with `cursor` gives the rest.
 */
export const nextPageHeader = {
  name: 'Link',
  description:
    'Present when more items match than this answer holds (at most 500): `<the same request with cursor=…>; rel="next"` (RFC 8288). Follow it until an answer comes without one; the body stays a plain array.',
  schema: { type: 'string', example: '</api/v1/meetings?cursor=AbC…>; rel="next"' },
};

/** The `cursor` of such a list: only as found in the `Link` of the previous answer. */
export const nextPageCursorParam = () =>
  z.described(
    cursorParam(),
    'The rest of a list that answered with a `Link` header: pass only as that header gives it (the same request with this cursor).',
  );
