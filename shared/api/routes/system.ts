import * as z from '../../util/zod.ts';
import { API_PREFIX, declared, defineRoute } from '../route-def.ts';
import { isoDateTime } from '../schemas/common.ts';

export const healthRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'get-health',
    area: 'system',
    method: 'GET',
    path: `${API_PREFIX}/health`,
    auth: 'public',
    summary: 'Validates a base address: status, version and server time.',
    status: 200,
    response: z.object({ status: z.string(), version: z.string(), time: isoDateTime() }),
  }),
);

export const openapiJsonRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'get-openapi-json',
    area: 'system',
    method: 'GET',
    path: `${API_PREFIX}/openapi.json`,
    auth: 'session',
    summary: 'The machine-readable description of every route (OpenAPI 3.1).',
    status: 200,
    raw: true,
  }),
);

export const openapiYamlRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'get-openapi-yaml',
    area: 'system',
    method: 'GET',
    path: `${API_PREFIX}/openapi.yaml`,
    auth: 'session',
    summary: 'The same description as YAML.',
    status: 200,
    raw: true,
  }),
);

export const asyncapiJsonRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'get-asyncapi-json',
    area: 'system',
    method: 'GET',
    path: `${API_PREFIX}/asyncapi.json`,
    auth: 'session',
    summary: 'The machine-readable description of the live-update stream and its change types (AsyncAPI 3.0).',
    status: 200,
    raw: true,
  }),
);

export const asyncapiYamlRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'get-asyncapi-yaml',
    area: 'system',
    method: 'GET',
    path: `${API_PREFIX}/asyncapi.yaml`,
    auth: 'session',
    summary: 'The same description of the live-update stream as YAML.',
    status: 200,
    raw: true,
  }),
);

export const docsPageRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'get-docs',
    area: 'system',
    method: 'GET',
    path: `${API_PREFIX}/docs`,
    auth: 'session',
    summary: 'The interactive reference (Swagger UI, served by the service).',
    status: 200,
    raw: true,
  }),
);

export const docsAssetRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'get-docs-asset',
    area: 'system',
    method: 'GET',
    path: `${API_PREFIX}/docs/{asset}`,
    auth: 'session',
    summary: "The reference page's own scripts and styles.",
    status: 200,
    raw: true,
    errors: [404],
  }),
);

/** The catch-all: unknown paths (sign-up and the removed submitter route among them) answer 404. */
export const notFoundRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'not-found',
    area: 'system',
    method: 'ANY',
    path: '$default',
    auth: 'public',
    summary: 'Answers every path no route declares with 404 (and CORS preflights).',
    status: 204,
  }),
);

export const systemRoutes = [
  healthRoute,
  openapiJsonRoute,
  openapiYamlRoute,
  asyncapiJsonRoute,
  asyncapiYamlRoute,
  docsPageRoute,
  docsAssetRoute,
  notFoundRoute,
];
