/**
 * `npm start`: the whole service offline. Ctrl-C stops everything cleanly; data stays in DATA_DIR.
 * `npm start -- --bundled` (or `LOCAL_BUNDLED=true`) serves the deployed esbuild bundles instead of
 * the TypeScript sources.
 */
import { bundledModeRequested } from './handler-module.ts';
import { startLocalRuntime } from './runtime.ts';

const port = Number(process.env.PORT ?? 3000);
const dataDir = process.env.DATA_DIR ?? '.data';
const started = Date.now();
// In the environment too: the first super admin is the break-glass account (docs/sso.md).
process.env.ADMIN_EMAIL ??= 'admin@example.com';

try {
  const runtime = await startLocalRuntime({
    port,
    dataDir,
    bundled: bundledModeRequested(),
    // CI's conformance runs keep nothing: their table in memory (docs/configuration.md).
    tableInMemory: process.env.LOCAL_TABLE_IN_MEMORY === 'true',
    seedAdmin: {
      email: process.env.ADMIN_EMAIL,
      password: process.env.ADMIN_PASSWORD ?? 'admin-password-1',
    },
    log: (line) => console.log(`[local] ${line}`),
  });
  console.log(`[local] SCIM: ${runtime.baseUrl}/api/v1/scim/v2, bearer token ${process.env.SCIM_TOKEN} (docs/scim.md)`);
  console.log(`[local] ready in ${((Date.now() - started) / 1000).toFixed(1)} s. Ctrl-C to stop.`);
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`[local] ${signal}: stopping`);
    await runtime.stop();
    console.log('[local] stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
} catch (err) {
  console.error(`[local] could not start: ${(err as Error).message}`);
  process.exit(1);
}
