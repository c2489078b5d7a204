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

/**
 * Where the sign-in form keeps the bearer token for the reference page's tab: the page authorises
 * Swagger UI with it, so "Try it out" and the curl snippets carry `Authorization: Bearer …` (calls
 * work with the cookie alone; the snippet is for a terminal, which has no cookie).
 */
const TOKEN_KEY = 'workplace-docs-token';

/**
 * The page loads its assets and the description relative to /api/v1/docs, with the same cookie; it
 * links both machine-readable descriptions (OpenAPI for the routes, AsyncAPI for the live stream).
 */
export const docsHtml = () => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Workplace API reference</title>
<link rel="stylesheet" href="/api/v1/docs/swagger-ui.css">
</head>
<body>
<nav id="descriptions" style="font-family: system-ui, sans-serif; padding: .6rem 1rem; font-size: .9rem;">
Descriptions: the HTTP API (OpenAPI 3.1) <a href="/api/v1/openapi.json">JSON</a> · <a href="/api/v1/openapi.yaml">YAML</a>;
the live-update stream and its change types (AsyncAPI 3.0) <a href="/api/v1/asyncapi.json">JSON</a> · <a href="/api/v1/asyncapi.yaml">YAML</a>
</nav>
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
  onComplete: function () {
    var token = sessionStorage.getItem('${TOKEN_KEY}');
    if (token) window.ui.preauthorizeApiKey('bearer', token);
  },
});
</script>
</body>
</html>
`;

/**
 * The reference page's answer to a browser without a session (401): a sign-in form that signs in
 * through the API (`POST /api/v1/auth/sign-in/email`, which sets the session cookie), keeps the
 * token for the page's curl snippets, and reloads.
 */
export const docsSignInHtml = () => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Sign in: Workplace API reference</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 22rem; margin: 4rem auto; padding: 0 1rem; }
label { display: block; margin-top: 1rem; }
input { width: 100%; padding: .4rem; box-sizing: border-box; }
button { margin-top: 1.2rem; padding: .5rem 1.2rem; }
#error { color: #b00020; min-height: 1.2em; }
</style>
</head>
<body>
<h1>Workplace API reference</h1>
<p>The reference needs a session. Sign in with your account.</p>
<form id="sign-in">
<label>E-mail <input name="email" type="email" autocomplete="username" required></label>
<label>Password <input name="password" type="password" autocomplete="current-password" required></label>
<button type="submit">Sign in</button>
<p id="error" role="alert"></p>
</form>
<script>
document.getElementById('sign-in').addEventListener('submit', async function (event) {
  event.preventDefault();
  var form = event.target;
  var error = document.getElementById('error');
  error.textContent = '';
  try {
    var res = await fetch('/api/v1/auth/sign-in/email', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: form.email.value, password: form.password.value }),
    });
    var body = await res.json().catch(function () { return {}; });
    if (!res.ok) {
      error.textContent = (Array.isArray(body.message) ? body.message.join(' ') : body.message) || 'Sign-in failed (' + res.status + ').';
      return;
    }
    var token = res.headers.get('set-auth-token') || body.token;
    if (token) sessionStorage.setItem('${TOKEN_KEY}', token);
    location.reload();
  } catch (e) {
    error.textContent = 'The service could not be reached.';
  }
});
</script>
</body>
</html>
`;
