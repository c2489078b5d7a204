import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type BuildOptions, build, type Plugin } from 'esbuild';
import { sharpLayerDir } from '../../layers/sharp/index.ts';
import { schedules, streamConsumers } from '../../shared/api/background.ts';
import { handlerFile } from '../../shared/api/route-def.ts';
import { routes } from '../../shared/api/routes/index.ts';
import { SCOPED_SETTING_NAMES, SCOPED_SETTINGS, type ScopedSetting } from '../../shared/config/scoped-settings.ts';
import { SECRET_NAMES, SECRETS, type SecretName } from '../../shared/config/secrets.ts';
import { PDF_FONT } from '../../shared/documents/pdf-font-file.ts';

/**
 * Bundles every function of the service with ONE esbuild run: each route of the route table (and each
 * extra entry) becomes `dist/functions/<area>/<name>/index.mjs`, a self-contained folder the CDK app
 * turns into that function's Lambda asset (`lambda.Code.fromAsset`). `npm run bundle` runs this file;
 * `infra/app.ts` calls `ensureBundled()` so `cdk synth` works from a clean checkout.
 *
 * - ESM for Node 22, minified, with an external source map shipped next to the code (no sources
 *   content). The functions do not load it unless the `workplace:sourceMaps` context value asks
 *   (`--enable-source-maps` costs init time on every cold start).
 * - A `createRequire` banner gives the ESM bundle a `require`, so bundled CommonJS dependencies that
 *   `require()` Node built-ins keep working.
 * - The AWS SDK: see `SDK_MODE` (docs/cold-starts.md has the measurements).
 *   `sharp` is left out: its native binary comes from a Lambda layer (`layers/sharp/`).
 * - The bench (`test/bench/cold-start.ts`) holds the size and init-time budgets these bundles meet.
 */

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const DIST = join(ROOT, 'dist');
export const DIST_FUNCTIONS = join(DIST, 'functions');
const STAMP = join(DIST_FUNCTIONS, '.bundle.json');
const LOCK = join(DIST, '.bundle.lock');

/**
 * How the functions get the AWS SDK v3. `bundled`: each bundle carries the clients it uses,
 * tree-shaken and minified, the version the tests ran. `runtime`: `@aws-sdk/*` is left out and
 * loaded from the Lambda Node.js 22 runtime's own copy (a version the tests never ran), except the
 * `RUNTIME_MISSING_AWS_SDK` packages. `npm run bench` with `BENCH_SDK=both` measures both against the
 * floor; `bundled` was the faster (docs/cold-starts.md).
 */
export type SdkMode = 'bundled' | 'runtime';
export const SDK_MODE: SdkMode = 'bundled';

/** Packages every function gets from outside its bundle, by SDK mode (layers, the runtime). */
export const externalsFor = (sdk: SdkMode): string[] => (sdk === 'runtime' ? ['sharp', '@aws-sdk/*'] : ['sharp']);
/** `@aws-sdk/*` packages bundled even in `runtime` mode (the Lambda runtime does not ship them). */
export const RUNTIME_MISSING_AWS_SDK = ['@aws-sdk/cloudfront-signer'];

const escapeRe = (s: string) => s.replace(/[/.]/g, '\\$&');

/** Resolves the `RUNTIME_MISSING_AWS_SDK` imports before the `@aws-sdk/*` external rule applies. */
const bundleAwsSdkUtilities: Plugin = {
  name: 'bundle-aws-sdk-utilities',
  setup(b) {
    const filter = new RegExp(`^(${RUNTIME_MISSING_AWS_SDK.map(escapeRe).join('|')})$`);
    b.onResolve({ filter }, (args) => ({
      path: createRequire(join(args.resolveDir, 'index.js')).resolve(args.path),
      external: false,
    }));
  },
};

/**
 * `yaml` as ES modules: its `node` export is CommonJS, which esbuild cannot tree-shake (112 KB in the
 * YAML route); the package's ESM build (the same code, its `default` export) keeps only `stringify`.
 */
const yamlAsEsm: Plugin = {
  name: 'yaml-as-esm',
  setup(b) {
    b.onResolve({ filter: /^yaml$/ }, (args) => ({
      path: join(
        dirname(createRequire(join(args.resolveDir, 'index.js')).resolve('yaml/package.json')),
        'browser/dist/index.js',
      ),
    }));
  },
};

/**
 * unicode-properties (fontkit's, in the PDF-writing function) reads its data from a file beside its
 * module under Node (its `#binary-trie` import); a bundle has no such file, so it would fail on the first
 * PDF. Its browser form holds the same data inlined (16 KB): that one is bundled.
 */
const unicodePropertiesInlined: Plugin = {
  name: 'unicode-properties-inlined',
  setup(b) {
    b.onResolve({ filter: /^#binary-trie$/ }, (args) =>
      /[\\/]node_modules[\\/]unicode-properties[\\/]/.test(args.importer)
        ? { path: join(dirname(args.importer), 'binaryTrie.browser.js') }
        : undefined,
    );
  },
};

/** The esbuild settings every function bundle (and the bench's floor bundle) is built with. */
export function bundleOptions(sdk: SdkMode = SDK_MODE): BuildOptions {
  return {
    absWorkingDir: ROOT,
    bundle: true,
    splitting: false, // each folder must stand alone as its function's asset
    platform: 'node',
    target: 'node22',
    format: 'esm',
    outExtension: { '.js': '.mjs' },
    mainFields: ['module', 'main'],
    banner: {
      js: "import { createRequire as __bundleCreateRequire } from 'node:module'; const require = __bundleCreateRequire(import.meta.url);",
    },
    minify: true,
    sourcemap: 'linked',
    sourcesContent: false,
    legalComments: 'none',
    external: externalsFor(sdk),
    plugins:
      sdk === 'runtime'
        ? [bundleAwsSdkUtilities, yamlAsEsm, unicodePropertiesInlined]
        : [yamlAsEsm, unicodePropertiesInlined],
    logLevel: 'warning',
    metafile: true,
  };
}

/**
 * Non-route entry points (project-relative handler modules), bundled like the routes. The background
 * functions of `shared/api/background.ts` (stream consumers, schedules) are included from that list;
 * add anything else that needs its own Lambda asset here.
 */
export const extraEntries: string[] = [
  ...streamConsumers.map((c) => c.handler),
  ...schedules.map((s) => s.handler),
  // The CloudFormation custom resource run on every deploy (infra/stacks/background-stack.ts).
  'infra/handlers/deploy-hook.ts',
];

/** Files copied next to one function's bundle, and the environment that function then needs. */
export interface FunctionExtras {
  /** `from`: `<package>/<file>` of an installed package; `to`: path inside the function's folder. */
  copy: { from: string; to: string }[];
  environment: Record<string, string>;
}

/** `swagger-ui-dist/swagger-ui.css` → that file inside the installed package (exports maps aside). */
function packageFile(spec: string): string {
  const parts = spec.split('/');
  const name = spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  const rest = parts.slice(name.split('/').length).join('/');
  return join(dirname(createRequire(import.meta.url).resolve(`${name}/package.json`)), rest);
}
/** Lambda unpacks the asset into /var/task. */
const DOCS_ASSETS_DIR = 'docs-assets';
const PDF_FONT_DIR = 'pdf-font';

/** Per function (keyed by its handler module), what the bundle folder carries besides `index.mjs`. */
export const functionExtras: Record<string, FunctionExtras> = {
  // The reference page's Swagger UI files, served by the function itself (shared/api/docs-assets.ts).
  'functions/system/get-docs-asset.ts': {
    copy: ['swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js'].map((f) => ({
      from: `swagger-ui-dist/${f}`,
      to: `${DOCS_ASSETS_DIR}/${f}`,
    })),
    environment: { DOCS_ASSETS_DIR: `/var/task/${DOCS_ASSETS_DIR}` },
  },
  // The font the grievance record's PDF is set in (shared/documents/pdf-font.ts), with its licence
  // (OFL-1.1): a file beside the code, read only when a PDF is asked for, so the bundle stays small.
  'functions/grievances/admin-export-grievance.ts': {
    copy: [
      { from: `${PDF_FONT.package}/${PDF_FONT.file}`, to: `${PDF_FONT_DIR}/${PDF_FONT.bundledFile}` },
      { from: `${PDF_FONT.package}/${PDF_FONT.licence}`, to: `${PDF_FONT_DIR}/${PDF_FONT.bundledLicence}` },
    ],
    environment: { [PDF_FONT.dirVariable]: `/var/task/${PDF_FONT_DIR}` },
  },
};

/** `functions/system/get-health.ts` → `functions/system/get-health` (the folder under dist/). */
export const entryDir = (handler: string) => handler.replace(/\\/g, '/').replace(/\.[cm]?[jt]s$/, '');
/** Absolute path of one function's asset folder. */
export const assetDir = (handler: string) => join(DIST, entryDir(handler));

/** Every handler module to bundle: the route table's, then the extra entries. */
export function allEntries(): string[] {
  const seen = new Set<string>();
  const entries: string[] = [];
  for (const handler of [...routes.map((r) => handlerFile(r)), ...extraEntries]) {
    if (seen.has(handler)) {
      throw new Error(`Two functions share the handler module ${handler} (route names must be unique per area).`);
    }
    seen.add(handler);
    entries.push(handler);
  }
  return entries;
}

export interface BundleSize {
  /** `system/get-health` */
  name: string;
  /** index.mjs */
  codeBytes: number;
  /** index.mjs.map */
  mapBytes: number;
  /** Everything the Lambda asset carries (code, map, copied files). */
  assetBytes: number;
}

export interface BundleOptions {
  /** Progress and the size table; defaults to stdout. */
  log?: (line: string) => void;
  /** Defaults to `SDK_MODE`; the bench builds the other mode elsewhere to compare. */
  sdk?: SdkMode;
  /** Where `functions/**` goes; defaults to dist/ (the bench's comparison builds use another folder). */
  outDir?: string;
}

/** Bundles every function into dist/functions (replacing what was there) and returns their sizes. */
export async function bundle(options: BundleOptions = {}): Promise<BundleSize[]> {
  const log = options.log ?? ((line: string) => console.log(line));
  const sdk = options.sdk ?? SDK_MODE;
  const outDir = options.outDir ?? DIST;
  const functionsDir = join(outDir, 'functions');
  const entries = allEntries();
  const missing = entries.filter((e) => !existsSync(join(ROOT, e)));
  if (missing.length) throw new Error(`Handler modules missing:\n  ${missing.join('\n  ')}`);

  const started = Date.now();
  rmSync(functionsDir, { recursive: true, force: true });
  const result = await build({
    ...bundleOptions(sdk),
    entryPoints: entries.map((e) => ({ in: e, out: `${entryDir(e)}/index` })),
    outdir: outDir,
  });
  if (result.errors.length) throw new Error(`esbuild failed with ${result.errors.length} error(s)`);

  for (const [handler, extras] of Object.entries(functionExtras)) {
    if (!entries.includes(handler)) continue;
    for (const { from, to } of extras.copy) {
      const target = join(outDir, entryDir(handler), to);
      mkdirSync(dirname(target), { recursive: true });
      copyFileSync(packageFile(from), target);
    }
  }

  // Per function: the packages it imports at run time without carrying them (sharp: the function
  // then needs the sharp layer; Node built-ins and, in `runtime` mode, the runtime's AWS SDK left
  // out), and the packages it carries (the tests check heavy ones stay where they are used).
  const externals: Record<string, string[]> = {};
  const packages: Record<string, string[]> = {};
  for (const e of entries) {
    const output = result.metafile?.outputs[`${relative(ROOT, outDir).replace(/\\/g, '/')}/${entryDir(e)}/index.mjs`];
    if (!output) throw new Error(`esbuild wrote no bundle for ${e}`);
    const used = output.imports
      .filter((i) => i.external && !i.path.startsWith('node:') && !isBuiltin(i.path))
      .filter((i) => sdk === 'bundled' || !i.path.startsWith('@aws-sdk/'))
      .map((i) => packageName(i.path));
    if (used.length) externals[e] = [...new Set(used)].sort();
    packages[e] = [
      ...new Set(
        Object.keys(output.inputs).flatMap((f) => {
          const m = f.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*node_modules\/)(.*)$/);
          if (!m) return [];
          // A zod locale other than English means the whole library came along (see biome.json).
          return m[2].includes('locales/') && !m[2].endsWith('locales/en.js') ? [m[1], `${m[1]}/locales`] : [m[1]];
        }),
      ),
    ].sort();
  }
  // Which application secrets each bundle reads: those whose reading module is in it (code that
  // survived tree shaking). Only these functions are granted the secret (infra/constructs/secret-grants.ts).
  // Likewise the settings a rule depends on (shared/config/scoped-settings.ts): given to exactly these.
  const secrets: Record<string, SecretName[]> = {};
  const settings: Record<string, ScopedSetting[]> = {};
  for (const e of entries) {
    const inputs =
      result.metafile?.outputs[`${relative(ROOT, outDir).replace(/\\/g, '/')}/${entryDir(e)}/index.mjs`]?.inputs ?? {};
    secrets[e] = secretsInOutput(inputs);
    settings[e] = settingsInOutput(inputs);
  }
  writeFileSync(
    join(functionsDir, '.bundle.json'),
    JSON.stringify(
      { builtAt: new Date().toISOString(), sdk, entries, externals, packages, secrets, settings },
      null,
      2,
    ),
  );
  const sizes = bundleSizes(functionsDir);
  log(`Bundled ${entries.length} functions in ${Date.now() - started} ms into ${relative(ROOT, functionsDir)}/`);
  log(formatSizes(sizes));
  return sizes;
}

/** `sharp/lib/x.js` → `sharp`; `@scope/pkg/x` → `@scope/pkg`. */
const packageName = (spec: string) =>
  spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/');

const dirSize = (dir: string): number =>
  readdirSync(dir, { withFileTypes: true }).reduce((sum, d) => {
    const p = join(dir, d.name);
    return sum + (d.isDirectory() ? dirSize(p) : statSync(p).size);
  }, 0);

/** The size of every bundled function found under dist/functions (any folder holding an index.mjs). */
export function bundleSizes(dir: string = DIST_FUNCTIONS): BundleSize[] {
  if (!existsSync(dir)) return [];
  const out: BundleSize[] = [];
  const walk = (d: string) => {
    const code = join(d, 'index.mjs');
    if (existsSync(code)) {
      const map = join(d, 'index.mjs.map');
      out.push({
        name: relative(dir, d).replace(/\\/g, '/'),
        codeBytes: statSync(code).size,
        mapBytes: existsSync(map) ? statSync(map).size : 0,
        assetBytes: dirSize(d),
      });
      return;
    }
    for (const child of readdirSync(d, { withFileTypes: true })) if (child.isDirectory()) walk(join(d, child.name));
  };
  walk(dir);
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

/** A plain-text table of bundle sizes. */
export function formatSizes(sizes: BundleSize[]): string {
  const w = Math.max(8, ...sizes.map((s) => s.name.length));
  const lines = [
    `${'function'.padEnd(w)}  ${'code'.padStart(10)}  ${'map'.padStart(10)}  ${'asset'.padStart(10)}`,
    ...sizes.map(
      (s) =>
        `${s.name.padEnd(w)}  ${kb(s.codeBytes).padStart(10)}  ${kb(s.mapBytes).padStart(10)}  ${kb(s.assetBytes).padStart(10)}`,
    ),
  ];
  const total = sizes.reduce((sum, s) => sum + s.codeBytes, 0);
  lines.push(`${'total'.padEnd(w)}  ${kb(total).padStart(10)}`);
  return lines.join('\n');
}

interface Stamp {
  sdk?: SdkMode;
  entries?: string[];
  externals?: Record<string, string[]>;
  packages?: Record<string, string[]>;
  secrets?: Record<string, SecretName[]>;
  settings?: Record<string, ScopedSetting[]>;
}

/** What the last bundle run wrote about itself (dist/functions/.bundle.json). */
export function bundleStamp(): Stamp {
  if (!existsSync(STAMP)) return {};
  const mtime = statSync(STAMP).mtimeMs;
  if (!stampCache || stampCache.mtime !== mtime) {
    stampCache = { mtime, stamp: JSON.parse(readFileSync(STAMP, 'utf8')) as Stamp };
  }
  return stampCache.stamp;
}
let stampCache: { mtime: number; stamp: Stamp } | undefined;

/**
 * The packages a bundled function imports from outside its bundle (besides Node and the runtime's
 * AWS SDK), e.g. `['sharp']`; read from the last bundle run.
 */
export const bundleExternals = (handler: string): string[] => bundleStamp().externals?.[handler] ?? [];

/** The npm packages bundled into a function (`zod/locales` when a locale other than English came along). */
export const bundledPackages = (handler: string): string[] => bundleStamp().packages?.[handler] ?? [];

/**
 * The application secrets an esbuild output reads, from its metafile inputs (project-relative paths):
 * those whose reading module has code in it. Also how the local runtime finds a function's secrets.
 */
export const secretsInOutput = (inputs: Record<string, { bytesInOutput: number }>): SecretName[] =>
  readIn(SECRET_NAMES, (name) => SECRETS[name].readBy, inputs);

/** The scoped settings an esbuild output reads: those whose reading module has code in it. */
export const settingsInOutput = (inputs: Record<string, { bytesInOutput: number }>): ScopedSetting[] =>
  readIn(SCOPED_SETTING_NAMES, (name) => SCOPED_SETTINGS[name].readBy, inputs);

/** The names of a registry (secrets, scoped settings) whose reading module has code in an esbuild output. */
const readIn = <N extends string>(
  names: readonly N[],
  readBy: (name: N) => string,
  inputs: Record<string, { bytesInOutput: number }>,
): N[] => names.filter((name) => (inputs[readBy(name)]?.bytesInOutput ?? 0) > 0);

/** The application secrets a bundled function reads (shared/config/secrets.ts); from the last bundle run. */
export const bundleSecrets = (handler: string): SecretName[] => recorded('secrets', handler);

/** The scoped settings a bundled function reads (shared/config/scoped-settings.ts); from the last bundle run. */
export const bundleSettings = (handler: string): ScopedSetting[] => recorded('settings', handler);

function recorded<K extends 'secrets' | 'settings'>(kind: K, handler: string) {
  const names = bundleStamp()[kind]?.[handler];
  if (!names) throw new Error(`No bundle record of ${handler}'s ${kind}: run \`npm run bundle\` first.`);
  return names as NonNullable<ReturnType<typeof bundleStamp>[K]>[string];
}

/**
 * The Lambda layers that provide the packages left out of the bundles (besides the AWS SDK): the
 * layer folder (holding `nodejs/node_modules/<package>`, Lambda's layout; the Node.js 22 runtime
 * resolves ES module imports from it too) is built separately, for linux-arm64, by
 * `npm run build:layers` (layers/sharp/build-layer.ts).
 */
export const externalLayers: Record<string, string> = { sharp: sharpLayerDir };

/** The layer folder of a package, when it has been built. */
export function builtLayerDir(pkg: string, dir: string | undefined = externalLayers[pkg]): string | undefined {
  if (!dir) return undefined;
  return existsSync(join(dir, 'nodejs', 'node_modules', pkg, 'package.json')) ? dir : undefined;
}

/** Newest modification time (ms) of the inputs that shape the bundles. */
function newestInput(): number {
  let newest = 0;
  const visit = (p: string) => {
    if (!existsSync(p)) return;
    const st = statSync(p);
    if (st.isDirectory()) {
      for (const child of readdirSync(p)) visit(join(p, child));
    } else if (st.mtimeMs > newest) newest = st.mtimeMs;
  };
  for (const p of [
    'functions',
    'shared',
    'infra/handlers',
    'package.json',
    'package-lock.json',
    'infra/build/bundle.ts',
  ])
    visit(join(ROOT, p));
  return newest;
}

/** dist/functions holds a bundle of exactly the current entries, newer than every input. */
export function isBundleFresh(): boolean {
  if (!existsSync(STAMP)) return false;
  let recorded: Stamp;
  try {
    recorded = JSON.parse(readFileSync(STAMP, 'utf8'));
  } catch {
    return false;
  }
  const entries = allEntries();
  if (recorded.sdk !== SDK_MODE || !recorded.packages) return false;
  if (JSON.stringify(recorded.entries) !== JSON.stringify(entries)) return false;
  // A bundle recorded before the secrets (or the scoped settings) were.
  if (!recorded.secrets || !recorded.settings) return false;
  if (!entries.every((e) => existsSync(join(assetDir(e), 'index.mjs')))) return false;
  return statSync(STAMP).mtimeMs >= newestInput();
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Bundles unless dist/ already holds a fresh bundle of every entry. Safe to call from several
 * processes at once (test workers): one bundles under a lock, the others wait and reuse its output.
 */
export async function ensureBundled(options: BundleOptions = {}): Promise<'bundled' | 'fresh'> {
  if (isBundleFresh()) return 'fresh';
  mkdirSync(DIST, { recursive: true });
  const deadline = Date.now() + 180_000;
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      // A lock older than two minutes belongs to a bundler that died.
      try {
        if (Date.now() - statSync(LOCK).mtimeMs > 120_000) rmSync(LOCK, { recursive: true, force: true });
      } catch (stale) {
        // The lock went away between the two calls (its holder finished): the next attempt takes it.
        if ((stale as NodeJS.ErrnoException).code !== 'ENOENT') throw stale;
      }
      if (Date.now() > deadline) throw new Error(`Timed out waiting for the bundle lock ${LOCK}`);
      await sleep(200);
    }
  }
  try {
    if (isBundleFresh()) return 'fresh';
    await bundle(options);
    return 'bundled';
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href;
if (isMain) {
  bundle().catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
