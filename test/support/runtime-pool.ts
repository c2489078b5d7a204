import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../infra/local/runtime.ts';
import type { RuntimeMessage } from './runtime-pool-protocol.ts';

/** A runtime process as the pool sees it. */
interface PooledRuntime {
  baseUrl: string;
  env: Record<string, string>;
  /** Test files it has been given. */
  files: number;
  stop(): Promise<void>;
}

const ENTRY = join(import.meta.dirname, 'runtime-process.ts');
const STOP_GRACE_MS = 20_000;

/**
 * The test run's local runtimes (docs/testing.md, "How the suite runs"): one for each vitest worker
 * slot (`VITEST_POOL_ID`), so two files running at once never share a table, and each replaced by a
 * fresh one after `filesPerRuntime` files, so what a runtime holds (its table, its stream records, the
 * whole-list documents) stays the size of a few files' data instead of growing with the run. The next
 * runtime of a slot is started while its current one serves its last file. A test file asks for its
 * slot's runtime over HTTP from its setup file (setup-env.ts): the pool lives in the global setup's
 * process, the files in workers.
 */
export class RuntimePool {
  private readonly current = new Map<string, Promise<PooledRuntime>>();
  private readonly next = new Map<string, Promise<PooledRuntime>>();
  private readonly all = new Set<Promise<PooledRuntime>>();
  private readonly server = createServer((req, res) => {
    const slot = /^\/lease\/([\w-]+)$/.exec(req.url ?? '')?.[1];
    if (req.method !== 'POST' || !slot) {
      res.writeHead(404).end();
      return;
    }
    this.lease(slot).then(
      (runtime) =>
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ baseUrl: runtime.baseUrl, env: runtime.env })),
      (err: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(err.message),
    );
  });

  constructor(
    private readonly filesPerRuntime: number,
    /** Variables every runtime gets besides this process's (secrets shared by all, settings). */
    private readonly env: Record<string, string>,
  ) {}

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
  }

  /** The runtime for the file starting in `slot`: the slot's current one, or its next once it has served its share. */
  async lease(slot: string): Promise<PooledRuntime> {
    let runtime = await this.current.get(slot)?.catch(() => undefined);
    if (!runtime || runtime.files >= this.filesPerRuntime) {
      if (runtime) void runtime.stop();
      const started = this.next.get(slot) ?? this.start();
      this.next.delete(slot);
      this.current.set(slot, started);
      runtime = await started;
    }
    runtime.files++;
    if (runtime.files === this.filesPerRuntime) this.next.set(slot, this.start());
    return runtime;
  }

  async stop(): Promise<void> {
    this.server.close();
    const runtimes = await Promise.all([...this.all].map((p) => p.catch(() => undefined)));
    await Promise.all(runtimes.map((r) => r?.stop()));
  }

  private start(): Promise<PooledRuntime> {
    const started = (async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'workplace-test-'));
      // Each runtime has its identity provider's address of its own: two SSO files may run at once.
      const issuer = `http://127.0.0.1:${await freePort()}`;
      const child = fork(ENTRY, [], {
        execArgv: ['--import', 'tsx'],
        env: { ...process.env, ...this.env, DATA_DIR: dataDir, OIDC_ISSUER: issuer },
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      const stop = async () => {
        if (child.exitCode === null && child.signalCode === null) {
          child.send({ type: 'stop' } satisfies RuntimeMessage);
          const killer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
          await exited;
          clearTimeout(killer);
        }
        rmSync(dataDir, { recursive: true, force: true });
      };
      try {
        const ready = await firstMessage(child);
        if (ready.type !== 'ready') throw new Error(ready.type === 'failed' ? ready.message : 'unexpected message');
        return { baseUrl: ready.baseUrl, env: ready.env, files: 0, stop };
      } catch (err) {
        await stop();
        throw new Error(`a test runtime did not start: ${(err as Error).message}`);
      }
    })();
    this.all.add(started);
    return started;
  }
}

function firstMessage(child: ChildProcess): Promise<RuntimeMessage> {
  return new Promise((resolve, reject) => {
    child.once('message', (m) => resolve(m as RuntimeMessage));
    child.once('exit', (code, signal) => reject(new Error(`its process exited (${code ?? signal})`)));
  });
}
