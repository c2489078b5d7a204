import { randomUUID } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { plainFunctionAccess } from '../../shared/api/access-policy.ts';
import type { FunctionSettings } from '../../shared/api/function-settings.ts';
import { SECRET_NAMES, SECRETS } from '../../shared/config/secrets.ts';
import { FunctionModules } from './function-modules.ts';
import type { Metadata, ResponseSink } from './streaming-shim.ts';

/**
 * The local runtime's Lambda: every function runs in execution environments of its own, worker
 * threads each with its own module graph (nothing in module memory is shared between functions, or
 * between two environments of one function), started on first use (a cold start) and kept warm.
 * Each environment serves one invocation at a time; a function scales out to a few environments
 * under concurrent requests and queues beyond them. An invocation running past the function's
 * timeout has its environment terminated, as Lambda does. The least recently used idle environments
 * are reclaimed beyond a cap, so memory stays bounded.
 */

/** Only invocations: nothing reaches a streaming invocation once it runs (its client leaving included). */
export type ToWorker = { type: 'invoke'; id: string; event: unknown; timeoutMs: number };

export type WorkerError = { name: string; message: string; stack?: string };

export type FromWorker =
  | { type: 'ready' }
  | { type: 'init-error'; error: WorkerError }
  | { type: 'result'; id: string; result: unknown; heapBytes: number; heapGrowthBytes: number }
  | { type: 'error'; id: string; error: WorkerError }
  | { type: 'stream-start'; id: string; metadata: Metadata }
  | { type: 'stream-chunk'; id: string; chunk: Uint8Array }
  | { type: 'stream-end'; id: string };

export type Outcome =
  | { status: 'ok'; result: unknown }
  | { status: 'error'; error: WorkerError }
  /** The function ran past its timeout; its environment was terminated. */
  | { status: 'timeout'; timeoutSeconds: number };

export interface InvokeOptions {
  /** Streaming functions: where the response stream goes. */
  sink?: ResponseSink;
  /** Called when the invocation starts in a ready environment (after any cold start). */
  onStart?: () => void;
}

export interface FunctionHostOptions {
  /** Refuse AWS calls outside each function's declared access (default true). */
  enforceAccess?: boolean;
  /** Environments of one function at once (default 3; streaming functions hold one per open stream). */
  concurrency?: number;
  /** Live environments kept in all, idle ones reclaimed beyond it (default 64, about 35 MB each). */
  maxEnvironments?: number;
  /**
   * Open streams one environment of a streaming function serves at once (default 25). Deployed each
   * stream holds an environment of its own; 1 reproduces that exactly, at the price of one worker
   * (a cold start, 35 MB) per open stream, which tests opening hundreds of streams cannot afford.
   */
  streamsPerEnvironment?: number;
  /**
   * Multiplies every function's timeout (default 1, the deployed timeouts). Only for a machine too
   * loaded to run handlers at Lambda's pace; the local API scales the integration timeout alike.
   */
  timeoutScale?: number;
  /** Variables the environments get besides (or instead of) this process's (tests: another endpoint). */
  env?: Record<string, string>;
}

/** A failed outcome as an error (what the stream poller retries, what the scheduler logs). */
export function outcomeError(outcome: Exclude<Outcome, { status: 'ok' }>): Error {
  if (outcome.status === 'timeout') return new Error(`Task timed out after ${outcome.timeoutSeconds} seconds`);
  return Object.assign(new Error(outcome.error.message), { name: outcome.error.name });
}

const MB = 1024 * 1024;
/** The environment's own code (project-relative), compiled like the handlers. */
const WORKER_ENTRY = 'infra/local/function-worker.ts';

/**
 * The runtime's Node options without its TypeScript loader: an environment loads compiled modules
 * only, and a loader's hooks on every import of every cold start cost more CPU than the test
 * suite's requests did (as Lambda, whose environments load plain JavaScript).
 */
export function workerExecArgv(execArgv: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const arg = execArgv[i]!;
    const takesValue = arg === '--import' || arg === '--require' || arg === '-r' || arg === '--loader';
    const value = takesValue ? (execArgv[i + 1] ?? '') : arg.replace(/^--(import|require|loader)=/, '');
    if (/(^|[/\\])tsx([/\\]|$)/.test(value)) {
      if (takesValue) i++;
      continue;
    }
    kept.push(arg);
  }
  return kept;
}
const WORKER_EXEC_ARGV = workerExecArgv(process.execArgv);

type Invocation = { done: (o: Outcome) => void; sink?: ResponseSink; timer?: NodeJS.Timeout };

class Environment {
  readonly worker: Worker;
  readonly ready: Promise<void>;
  /** Invocations acquired and not yet released. */
  load = 0;
  dead = false;
  /** Serves what it has begun, then stops: the function's configuration changed (FunctionHost.redeploy). */
  retiring = false;
  lastUsed = Date.now();
  private readonly running = new Map<string, Invocation>();

  constructor(
    /** Invocations it serves at once: 1, as Lambda; more only for streams (see FunctionHostOptions). */
    readonly slots: number,
    private readonly timeoutMs: number,
    entry: string,
    handlerUrl: string,
    readonly fn: FunctionSettings,
    enforceAccess: boolean,
    env: Record<string, string | undefined>,
    private readonly onDeath: (env: Environment) => void,
    private readonly log: (line: string) => void,
  ) {
    this.worker = new Worker(new URL(entry), {
      workerData: { handlerUrl, fn: plainFunctionAccess(fn), enforceAccess },
      env,
      execArgv: WORKER_EXEC_ARGV,
    });
    this.worker.unref();
    this.ready = new Promise((resolve, reject) => {
      const onMessage = (m: FromWorker) => {
        if (m.type === 'ready') resolve();
        else if (m.type === 'init-error') {
          reject(Object.assign(new Error(`${fn.handler} failed to initialise: ${m.error.message}`), m.error));
          this.kill();
        } else this.onMessage(m);
      };
      this.worker.on('message', onMessage);
      this.worker.once('error', (err) => {
        reject(err);
        this.finishAll({
          status: 'error',
          error: { name: 'Runtime.ExitError', message: err.message, stack: err.stack },
        });
        this.kill();
      });
      this.worker.once('exit', () => {
        reject(new Error(`${fn.handler}: the environment exited`));
        this.finishAll({ status: 'error', error: { name: 'Runtime.ExitError', message: 'the environment exited' } });
        this.markDead();
      });
    });
    // The caller awaiting `ready` (FunctionPool.acquire) answers the invocation with the failure; the
    // runtime log says which environment failed to start, as Lambda's init error log line does.
    this.ready.catch((err: Error) => this.log(`${fn.name}: the environment failed to start: ${err.message}`));
  }

  invoke(event: unknown, opts: InvokeOptions): Promise<Outcome> {
    const id = randomUUID();
    const timeoutMs = this.timeoutMs;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        // Lambda stops the environment of a timed-out invocation; its next one starts cold.
        this.log(`${this.fn.name}: Task timed out after ${this.fn.timeoutSeconds} seconds`);
        this.finish(id, { status: 'timeout', timeoutSeconds: this.fn.timeoutSeconds });
        this.kill();
      }, timeoutMs);
      this.running.set(id, { done: resolve, sink: opts.sink, timer });
      opts.onStart?.();
      this.post({ type: 'invoke', id, event, timeoutMs });
    });
  }

  private post(message: ToWorker) {
    if (!this.dead) this.worker.postMessage(message);
  }

  private onMessage(m: FromWorker) {
    const current = 'id' in m ? this.running.get(m.id) : undefined;
    if (!current || !('id' in m)) return;
    switch (m.type) {
      case 'stream-start':
        current.sink?.start(m.metadata);
        return;
      case 'stream-chunk':
        current.sink?.write(Buffer.from(m.chunk));
        return;
      case 'stream-end':
        current.sink?.end();
        return;
      case 'error':
        this.finish(m.id, { status: 'error', error: m.error });
        return;
      case 'result':
        if (m.heapBytes > this.fn.memoryMb * MB) {
          // Best effort: the worker's heap stands for the environment's memory. Deployed, an
          // environment over its memory is stopped mid-invocation (Runtime.OutOfMemory).
          this.log(
            `${this.fn.name}: heap ${Math.round(m.heapBytes / MB)} MB after an invocation (+${Math.round(m.heapGrowthBytes / MB)} MB) exceeds the function's ${this.fn.memoryMb} MB`,
          );
        }
        this.finish(m.id, { status: 'ok', result: m.result });
        return;
    }
  }

  private finish(id: string, outcome: Outcome) {
    const current = this.running.get(id);
    if (!current) return;
    this.running.delete(id);
    clearTimeout(current.timer);
    if (outcome.status !== 'ok') current.sink?.end();
    current.done(outcome);
  }

  private finishAll(outcome: Outcome) {
    for (const id of [...this.running.keys()]) this.finish(id, outcome);
  }

  kill() {
    this.markDead();
    void this.worker.terminate();
  }

  private markDead() {
    if (this.dead) return;
    this.dead = true;
    this.onDeath(this);
  }
}

/** The environments of one function. */
class FunctionPool {
  readonly envs: Environment[] = [];
  /** Environments being prepared (their modules compiled), counted against the concurrency. */
  private starting = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly fn: FunctionSettings,
    private readonly host: FunctionHost,
    private readonly concurrency: number,
    readonly slots: number,
  ) {}

  async acquire(): Promise<Environment> {
    for (;;) {
      const free = this.envs.find((e) => e.load < e.slots && !e.dead && !e.retiring);
      if (free) {
        free.load++;
        return free;
      }
      if (this.envs.length + this.starting < this.concurrency) {
        this.starting++;
        let env: Environment;
        try {
          env = await this.host.spawn(this);
        } catch (err) {
          this.waiting.shift()?.();
          throw err;
        } finally {
          this.starting--;
        }
        env.load++;
        this.envs.push(env);
        await env.ready; // a failed start removed it from the pool (onDeath)
        return env;
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  release(env: Environment) {
    env.load--;
    env.lastUsed = Date.now();
    if (env.retiring && env.load === 0) env.kill();
    this.waiting.shift()?.();
  }

  remove(env: Environment) {
    const i = this.envs.indexOf(env);
    if (i >= 0) this.envs.splice(i, 1);
    this.waiting.shift()?.();
  }
}

export class FunctionHost {
  private readonly pools = new Map<string, FunctionPool>();
  private readonly modules: FunctionModules;
  private readonly enforceAccess: boolean;
  private readonly concurrency: number;
  private readonly maxEnvironments: number;
  private readonly streamsPerEnvironment: number;
  private readonly timeoutScale: number;
  private readonly env: Record<string, string>;

  constructor(
    root: string,
    private readonly log: (line: string) => void,
    opts: FunctionHostOptions = {},
  ) {
    this.enforceAccess = opts.enforceAccess ?? true;
    this.concurrency = opts.concurrency ?? 3;
    this.maxEnvironments = opts.maxEnvironments ?? 64;
    this.streamsPerEnvironment = opts.streamsPerEnvironment ?? 25;
    this.timeoutScale = opts.timeoutScale ?? 1;
    this.env = opts.env ?? {};
    this.modules = new FunctionModules(root);
  }

  /** Runs one invocation of `fn` with `event`; never rejects (failures are outcomes). */
  async invoke(fn: FunctionSettings, event: unknown, opts: InvokeOptions = {}): Promise<Outcome> {
    // Streams: Lambda gives each its own environment; here one serves up to `streamsPerEnvironment`.
    const pool = opts.sink ? this.pool(fn, 1000, this.streamsPerEnvironment) : this.pool(fn, this.concurrency, 1);
    let env: Environment;
    try {
      env = await pool.acquire();
    } catch (err) {
      const e = err as Error;
      this.log(`${fn.name}: ${e.message}`);
      return { status: 'error', error: { name: 'Runtime.InitError', message: e.message, stack: e.stack } };
    }
    try {
      return await env.invoke(event, opts);
    } finally {
      if (!env.dead) pool.release(env);
      this.reclaim();
    }
  }

  /** Live environments (tests, logs). */
  get environments(): number {
    let n = 0;
    for (const p of this.pools.values()) n += p.envs.length;
    return n;
  }

  /**
   * As Lambda does after a function's configuration changes: invocations from now on start in new
   * environments, made with the variables as they are now; the old ones finish what they serve and stop.
   */
  redeploy(): void {
    for (const env of [...this.pools.values()].flatMap((p) => p.envs)) {
      env.retiring = true;
      if (env.load === 0) env.kill();
    }
  }

  async stop(): Promise<void> {
    const all = [...this.pools.values()].flatMap((p) => p.envs);
    await Promise.all(all.map((e) => e.worker.terminate()));
    this.pools.clear();
    this.modules.remove();
  }

  async spawn(pool: FunctionPool): Promise<Environment> {
    const [entry, handler] = await Promise.all([
      this.modules.compiled(WORKER_ENTRY),
      this.modules.handler(pool.fn.handler),
    ]);
    // The function is granted the secrets its code reads (as deployed, infra/constructs/secret-grants.ts);
    // locally their values are variables, so it gets only those.
    const fn: FunctionSettings = { ...pool.fn, secrets: handler.secrets };
    const env: Record<string, string | undefined> = { ...process.env, ...this.env };
    for (const name of SECRET_NAMES) if (!handler.secrets.includes(name)) delete env[SECRETS[name].variable];
    const environment = new Environment(
      pool.slots,
      pool.fn.timeoutSeconds * 1000 * this.timeoutScale,
      entry.url,
      handler.url,
      fn,
      this.enforceAccess,
      env,
      (dead) => pool.remove(dead),
      this.log,
    );
    this.reclaim();
    return environment;
  }

  private pool(fn: FunctionSettings, concurrency: number, slots: number): FunctionPool {
    const key = `${fn.name} ${fn.handler}`;
    let pool = this.pools.get(key);
    if (!pool) {
      pool = new FunctionPool(fn, this, concurrency, slots);
      this.pools.set(key, pool);
    }
    return pool;
  }

  /** Beyond the cap, the least recently used idle environments go (Lambda reclaiming them). */
  private reclaim() {
    let excess = this.environments - this.maxEnvironments;
    if (excess <= 0) return;
    const idle = [...this.pools.values()]
      .flatMap((p) => p.envs)
      .filter((e) => e.load === 0 && !e.dead)
      .sort((a, b) => a.lastUsed - b.lastUsed);
    for (const env of idle) {
      if (excess-- <= 0) break;
      env.kill();
    }
  }
}
