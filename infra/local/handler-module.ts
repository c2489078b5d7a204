import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  DIST_FUNCTIONS,
  ensureBundled,
  entryDir,
  externalLayers,
  externalsFor,
  functionExtras,
  ROOT,
  SDK_MODE,
} from '../build/bundle.ts';

/**
 * Which file the local runtime loads for a function (a route, a stream consumer, a schedule): its
 * TypeScript source, or, in bundled mode (`npm start -- --bundled`, or `LOCAL_BUNDLED=true`), the
 * esbuild bundle production deploys, staged by `stageBundles`. The one switch point between the two.
 */
export function handlerModuleUrl(handler: string, root: string = ROOT): string {
  const staged = process.env.LOCAL_BUNDLE_DIR;
  return pathToFileURL(staged ? join(staged, entryDir(handler), 'index.mjs') : join(root, handler)).href;
}

/** Bundled mode is asked for by `--bundled` on the command line or `LOCAL_BUNDLED=true`. */
export const bundledModeRequested = (argv: string[] = process.argv): boolean =>
  argv.includes('--bundled') || process.env.LOCAL_BUNDLED === 'true' || process.env.LOCAL_BUNDLED === '1';

/**
 * Bundles (unless dist/ is fresh) and copies dist/functions into a temporary folder outside the
 * project, so a bundle resolves nothing from the project's node_modules: only Node's built-ins and
 * what the Lambda environment provides, modelled by that folder's own node_modules — the layers'
 * packages (sharp: locally the installed copy stands in for the layer) and, when `SDK_MODE` is
 * `runtime`, the runtime's AWS SDK. A package a bundle imports but neither carries nor gets from there
 * fails to load here as it would in Lambda. Per-function environment values that point into the
 * function's folder (`/var/task/...`) are pointed at the staged folder. Sets `LOCAL_BUNDLE_DIR`;
 * answers a function that removes the folder.
 */
export async function stageBundles(log: (line: string) => void): Promise<() => void> {
  const how = await ensureBundled({ log: () => undefined });
  const dir = mkdtempSync(join(tmpdir(), 'workplace-bundles-'));
  cpSync(DIST_FUNCTIONS, join(dir, 'functions'), { recursive: true });
  const provided = [
    ...Object.keys(externalLayers),
    ...externalsFor(SDK_MODE)
      .filter((p) => p.endsWith('/*'))
      .map((p) => p.slice(0, -2)),
  ];
  for (const pkg of provided) {
    const link = join(dir, 'node_modules', pkg);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules', pkg), link, 'dir');
  }
  for (const [handler, extras] of Object.entries(functionExtras)) {
    for (const [k, v] of Object.entries(extras.environment)) {
      process.env[k] = v.replace(/^\/var\/task(?=\/|$)/, join(dir, entryDir(handler)));
    }
  }
  process.env.LOCAL_BUNDLE_DIR = dir;
  log(
    `bundled mode: ${how === 'fresh' ? 'reusing' : 'built'} dist/functions (AWS SDK ${SDK_MODE}), staged in ${dir} with ${provided.join(', ')} provided`,
  );
  return () => {
    delete process.env.LOCAL_BUNDLE_DIR;
    rmSync(dir, { recursive: true, force: true });
  };
}
