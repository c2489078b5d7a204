import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * Swagger UI's own files, served by the service (no CDN: the reference works offline). Deployed,
 * the bundle step copies them next to the function (`DOCS_ASSETS_DIR`).
 */
const ASSETS = new Map<string, string>([
  ['swagger-ui.css', 'text/css; charset=utf-8'],
  ['swagger-ui-bundle.js', 'application/javascript; charset=utf-8'],
  ['swagger-ui-standalone-preset.js', 'application/javascript; charset=utf-8'],
]);

export const DOCS_ASSET_NAMES = [...ASSETS.keys()];

function assetsDir(): string {
  if (process.env.DOCS_ASSETS_DIR) return process.env.DOCS_ASSETS_DIR;
  return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
}

/** By name from the URL: a Map, so `__proto__` or `constructor` are unknown names, not Object's own. */
export function readDocsAsset(name: string): { data: string; contentType: string } | undefined {
  const contentType = ASSETS.get(name);
  if (!contentType) return undefined;
  return { data: readFileSync(join(assetsDir(), name), 'utf8'), contentType };
}

/** The page loads its assets and the description relative to /api/v1/docs, with the same cookie. */
export const docsHtml = () => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Workplace API reference</title>
<link rel="stylesheet" href="/api/v1/docs/swagger-ui.css">
</head>
<body>
<div id="reference"></div>
<script src="/api/v1/docs/swagger-ui-bundle.js"></script>
<script src="/api/v1/docs/swagger-ui-standalone-preset.js"></script>
<script>
window.ui = SwaggerUIBundle({
  url: '/api/v1/openapi.json',
  dom_id: '#reference',
  withCredentials: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'StandaloneLayout',
});
</script>
</body>
</html>
`;
