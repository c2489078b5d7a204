import { queryParamDocs } from '../api/query.ts';
import { type AnyRoute, routeMethods } from '../api/route-def.ts';
import { areaDescriptions, routes } from '../api/routes/index.ts';
import { ErrorBody } from '../api/schemas/common.ts';
import { IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_TTL_SECONDS, REPLAYED_HEADER } from '../http/idempotency.ts';
import { cacheControl } from '../http/middlewares/public-answers.ts';
import * as z from '../util/zod.ts';
import { documentInfo } from './document-info.ts';

type JsonSchema = Record<string, any>;

/** The optional header of every creating route (`idempotent` in the route table). */
const idempotencyKeyParameter = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: IDEMPOTENCY_KEY_PATTERN.source },
  description: [
    'Makes a retry safe: send a fresh unique value (a UUID) with each new request and the same value when',
    'retrying it. The first successful answer is kept for',
    `${IDEMPOTENCY_TTL_SECONDS / 3600} hours per caller and key; a retry with the same key, path and body gets`,
    `that answer again (with \`${REPLAYED_HEADER}: true\`) without creating anything twice. The same key with`,
    'another path or body is a 422; a retry while the first request is still running is a 409 (retry',
    'later). Errors are not kept: after a 4xx or 5xx the same key runs the request again. Keys are',
    "per person: another person's identical key is unrelated.",
  ].join(' '),
};

/**
 * The OpenAPI 3.1 document, generated from the route table. Schemas with a `meta({ id })` become
 * components; the streaming route, the catch-all and local-only routes are left out.
 */
export function openapiDocument(list: AnyRoute[] = routes): Record<string, any> {
  const components: Record<string, JsonSchema> = {};
  const toSchema = (schema: z.ZodMiniType, io: 'input' | 'output'): JsonSchema => {
    const json = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      io,
      unrepresentable: 'any',
      reused: 'inline',
      override: ({ zodSchema, jsonSchema }) => {
        const documented = queryParamDocs.get(zodSchema);
        if (!documented) return;
        const { description } = jsonSchema;
        for (const key of Object.keys(jsonSchema)) delete (jsonSchema as JsonSchema)[key];
        Object.assign(jsonSchema, documented, description ? { description } : {});
      },
    }) as JsonSchema;
    const defs = (json.$defs ?? {}) as Record<string, JsonSchema>;
    delete json.$defs;
    delete json.$schema;
    const rewrite = (node: unknown): unknown => {
      if (Array.isArray(node)) return node.map(rewrite);
      if (node && typeof node === 'object') {
        const out: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(node)) {
          out[k] =
            k === '$ref' && typeof v === 'string' && v.startsWith('#/$defs/')
              ? `#/components/schemas/${v.slice(8)}${io === 'input' ? 'Input' : ''}`
              : rewrite(v);
        }
        return out;
      }
      return node;
    };
    for (const [name, def] of Object.entries(defs))
      components[`${name}${io === 'input' ? 'Input' : ''}`] = rewrite(def) as JsonSchema;
    return rewrite(json) as JsonSchema;
  };
  // The error body carries an id, so converting it registers `components.schemas.Error` and returns
  // the reference every error response uses.
  const errorRef = toSchema(ErrorBody, 'output');
  // SCIM's error body (RFC 7644 §3.12), answered by the SCIM routes (shared/scim/errors.ts).
  const scimErrorSchema: JsonSchema = {
    type: 'object',
    required: ['schemas', 'status'],
    properties: {
      schemas: { type: 'array', items: { type: 'string' } },
      status: { type: 'string' },
      scimType: { type: 'string' },
      detail: { type: 'string' },
    },
  };
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of list) {
    if (r.streaming || r.path === '$default' || r.method === 'ANY') continue;
    const params: Record<string, unknown>[] = [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    if (r.idempotent) params.push(idempotencyKeyParameter);
    for (const h of r.headers ?? [])
      params.push({ name: h.name, in: 'header', required: false, description: h.description, schema: h.schema });
    if (r.query) {
      const q = toSchema(r.query, 'input');
      for (const [name, schema] of Object.entries((q.properties ?? {}) as Record<string, JsonSchema>)) {
        params.push({
          name,
          in: 'query',
          required: (q.required ?? []).includes(name),
          ...(typeof schema.description === 'string' ? { description: schema.description } : {}),
          schema: schema as { type: string },
        });
      }
    }
    const responses: Record<string, unknown> = {};
    const success: Record<string, unknown> = { description: r.summary };
    if (r.response) success.content = { 'application/json': { schema: toSchema(r.response, 'output') } };
    else if (r.scim) success.content = { 'application/scim+json': {} };
    else if (r.raw)
      success.content = {
        [r.path.endsWith('.yaml')
          ? 'application/yaml'
          : r.path.endsWith('.json')
            ? 'application/json'
            : r.path.endsWith('.csv')
              ? 'text/csv'
              : '*/*']: {},
      };
    if (r.cache) {
      // The public website routes (shared/http/middlewares/public-answers.ts): cacheable, validated.
      success.headers = {
        ETag: {
          description: 'Strong validator of the answer; send it back in If-None-Match.',
          schema: { type: 'string' },
        },
        'Cache-Control': { description: cacheControl(r.cache), schema: { type: 'string' } },
      };
      responses['304'] = { description: 'Not modified: the If-None-Match tag is current (no body; HEAD works too).' };
    }
    if (r.responseHeaders?.length)
      success.headers = {
        ...((success.headers as Record<string, unknown>) ?? {}),
        ...Object.fromEntries(r.responseHeaders.map((h) => [h.name, { description: h.description, schema: h.schema }])),
      };
    responses[String(r.status)] = success;
    if (r.redirects)
      responses['302'] = {
        description: 'The file at a short-lived signed URL (Location).',
        headers: { Location: { description: 'The signed URL.', schema: { type: 'string' } } },
      };
    const errorStatuses = new Set([
      ...(r.errors ?? []),
      ...(r.auth === 'public' ? [] : [401]),
      ...(r.auth === 'super_admin' ? [403] : []),
      // Every route validates its query (a route without one rejects any parameter) and path parameters.
      400,
      ...(r.idempotent ? [400, 409, 422] : []),
      // Any body over the API's payload limit (10 MB) is refused before the route runs.
      ...(r.body || r.multipart ? [413] : []),
      // A JSON body in another media type (shared/http/middlewares/request-parser.ts).
      ...(r.body ? [415] : []),
    ]);
    for (const s of [...errorStatuses].sort()) {
      responses[String(s)] =
        r.scim && r.errors?.includes(s)
          ? {
              description: "Error, in SCIM's error body",
              content: { 'application/scim+json': { schema: scimErrorSchema } },
            }
          : { description: 'Error', content: { 'application/json': { schema: errorRef } } };
    }
    const op: Record<string, unknown> = {
      operationId: r.name,
      summary: r.summary,
      description: r.summary,
      tags: [r.area],
      parameters: params.length ? params : undefined,
      responses,
      security: r.auth === 'public' ? [] : [{ bearer: [] }, { cookie: [] }],
    };
    if (r.body)
      op.requestBody = {
        required: !r.bodyOptional,
        content: { 'application/json': { schema: toSchema(r.body, 'input') } },
      };
    if (r.multipart) {
      op.requestBody = {
        required: true,
        content: {
          'multipart/form-data': {
            schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } }, required: ['file'] },
          },
        },
      };
    }
    const path = r.path;
    paths[path] ??= {};
    paths[path][r.method.toLowerCase()] = op;
    if (routeMethods(r).includes('HEAD')) {
      // A cacheable GET answers HEAD with the same status and headers and no body (what caches and
      // link checkers send), so generated clients see it too.
      const withoutBody = Object.fromEntries(
        Object.entries(responses).map(([status, { content: _body, ...rest }]: [string, any]) => [status, rest]),
      );
      paths[path].head = {
        ...op,
        operationId: `${r.name}-head`,
        summary: `${r.summary} (headers only)`,
        description: `The headers of \`GET ${path}\`, without its body.`,
        responses: withoutBody,
      };
    }
  }
  const tags = [...new Set(Object.values(paths).flatMap((ops) => Object.values(ops).flatMap((op: any) => op.tags)))];
  return {
    openapi: '3.1.0',
    info: documentInfo(
      'Workplace collaboration service',
      'The HTTP/JSON API of the internal collaboration platform. The live-update stream (server-sent events) is deliberately not described here.',
    ),
    servers: [{ url: '/' }],
    tags: tags.map((name) => {
      const description = areaDescriptions[name];
      if (!description) throw new Error(`route area ${name} has no description in areaDescriptions`);
      return { name, description };
    }),
    paths,
    components: {
      schemas: components,
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer' },
        cookie: { type: 'apiKey', in: 'cookie', name: 'wcs_session' },
      },
    },
  };
}
