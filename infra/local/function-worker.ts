import * as nodeModule from 'node:module';
import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import type { FunctionSettings } from '../../shared/api/function-settings.ts';
import { installAwsClientHook } from '../../shared/aws/clients.ts';
import { accessGuard } from './access-guard.ts';
import { lambdaContext } from './event.ts';
import type { FromWorker, ToWorker } from './function-host.ts';
import { installStreamingShim, isStreamingHandler, LocalResponseStream } from './streaming-shim.ts';

/**
 * One execution environment of one function, in its own worker thread and module graph: the guard
 * of its access is installed before its handler module loads (so every AWS client it makes carries
 * it), then it serves one invocation at a time, as a Lambda execution environment does.
 */
const { handlerUrl, fn, enforceAccess } = workerData as {
  handlerUrl: string;
  fn: FunctionSettings;
  enforceAccess: boolean;
};
const port = parentPort!;
const post = (message: FromWorker) => port.postMessage(message);

// Stack traces name the source files, as NODE_OPTIONS=--enable-source-maps does deployed.
process.setSourceMapsEnabled(true);
// A cold start compiles the same handler and packages every time a runtime starts one: Node's
// on-disk code cache (keyed by each file's content; NODE_COMPILE_CACHE names its folder, else the
// system's temporary one) spares the compiling, not the running of module code. Lambda has no such
// cache; what a cold start costs deployed is measured by `npm run bench -- cold`, never here.
nodeModule.enableCompileCache?.();
if (enforceAccess) installAwsClientHook(accessGuard(fn.name, fn));
installStreamingShim();

type Handler = (...args: unknown[]) => Promise<unknown>;
let handler: Handler;
try {
  const mod = await import(handlerUrl);
  if (typeof mod.handler !== 'function') throw new Error(`${fn.handler} does not export a handler`);
  handler = mod.handler;
  post({ type: 'ready' });
} catch (err) {
  post({ type: 'init-error', error: errorOf(err) });
}

port.on('message', async (message: ToWorker) => {
  const { id, event, timeoutMs } = message;
  const before = getHeapStatistics().used_heap_size;
  const context = lambdaContext(fn.name, timeoutMs, fn.memoryMb);
  try {
    let result: unknown;
    if (isStreamingHandler(handler)) {
      const stream = new LocalResponseStream({
        start: (metadata) => post({ type: 'stream-start', id, metadata }),
        write: (chunk) => post({ type: 'stream-chunk', id, chunk }),
        end: () => post({ type: 'stream-end', id }),
      });
      await handler(event, stream, context);
      if (!stream.writableEnded && !stream.destroyed) stream.end();
    } else {
      result = await handler(event, context);
    }
    const heap = getHeapStatistics().used_heap_size;
    post({ type: 'result', id, result, heapBytes: heap, heapGrowthBytes: heap - before });
  } catch (err) {
    post({ type: 'error', id, error: errorOf(err) });
  }
});

function errorOf(err: unknown): { name: string; message: string; stack?: string } {
  const e = err as Error;
  return { name: e?.name ?? 'Error', message: e?.message ?? String(err), stack: e?.stack };
}
