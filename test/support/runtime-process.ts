/**
 * One local runtime of the test run, in a process of its own (test/support/runtime-pool.ts forks it):
 * the runtime's parts read and set `process.env` (endpoints, secrets), so two runtimes side by side
 * need two processes. Its table lives in memory: nothing of a test run outlives it. It answers its
 * parent with the address and the environment a test file needs to reach it, and stops cleanly when
 * told to, or when its parent goes.
 */
import { freePort, startLocalRuntime } from '../../infra/local/runtime.ts';
import { FIRST_ADMIN } from './first-admin.ts';
import { appendToRuntimeLog, divertLogLines } from './runtime-log.ts';
import { RUNTIME_ENV_KEYS, type RuntimeMessage } from './runtime-pool-protocol.ts';

divertLogLines();
const send = (m: RuntimeMessage) => process.send?.(m);

try {
  const runtime = await startLocalRuntime({
    port: await freePort(),
    dataDir: process.env.DATA_DIR!,
    seedAdmin: FIRST_ADMIN,
    withSchedules: false,
    tableInMemory: true,
    log: appendToRuntimeLog,
  });
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= runtime.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    ));
  process.on('message', (m: RuntimeMessage) => m.type === 'stop' && void stop());
  process.on('disconnect', () => void stop());
  send({
    type: 'ready',
    baseUrl: runtime.baseUrl,
    env: Object.fromEntries(RUNTIME_ENV_KEYS.map((k) => [k, process.env[k] ?? ''])),
  });
} catch (err) {
  send({ type: 'failed', message: (err as Error).stack ?? String(err) });
  process.exit(1);
}
