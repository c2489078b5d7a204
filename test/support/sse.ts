/**
 * A minimal EventSource over fetch, for the tests and the live bench alike: frames as they arrive
 * (stamped with their arrival time, which the bench measures latency by), `next(pred)` to wait for one.
 * It takes the base address rather than reading the test run's, so code outside vitest can use it.
 */

export interface Frame {
  event: string;
  id: string | undefined;
  data: any;
  /** Date.now() when the frame was read off the stream. */
  receivedAt: number;
}

export async function openSse(baseUrl: string, token: string, lastEventId?: string, clientId?: string) {
  const ctrl = new AbortController();
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'text/event-stream' };
  if (lastEventId) headers['last-event-id'] = lastEventId;
  const query = clientId ? `?clientId=${encodeURIComponent(clientId)}` : '';
  const res = await fetch(`${baseUrl}/api/v1/realtime/stream${query}`, { headers, signal: ctrl.signal });
  const frames: Frame[] = [];
  const waiters: { pred: (f: Frame) => boolean; resolve: (f: Frame) => void }[] = [];
  let ended = false;
  void (async () => {
    const decoder = new TextDecoder();
    let buf = '';
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buf += decoder.decode(chunk, { stream: true });
        for (let i = buf.indexOf('\n\n'); i >= 0; i = buf.indexOf('\n\n')) {
          const block = buf.slice(0, i);
          buf = buf.slice(i + 2);
          const f: Frame = { event: 'message', id: undefined, data: '', receivedAt: Date.now() };
          for (const line of block.split('\n')) {
            const c = line.indexOf(':');
            const k = line.slice(0, c);
            const v = line.slice(c + 1).trimStart();
            if (k === 'event') f.event = v;
            else if (k === 'id') f.id = v;
            else if (k === 'data') f.data = JSON.parse(v);
          }
          frames.push(f);
          for (const w of [...waiters]) if (w.pred(f)) waiters.splice(waiters.indexOf(w), 1) && w.resolve(f);
        }
      }
    } catch {
      // aborted
    }
    ended = true;
  })();
  return {
    status: res.status,
    frames,
    get ended() {
      return ended;
    },
    changes: () => frames.filter((f) => f.event === 'change'),
    /**
     * The first frame (seen or to come) that `pred` accepts. Frames arrive in log order: in the suite
     * the change feed may still be turning the previous file's writes into events when a stream opens
     * (one measured run delivered 250 of them in 10 s before the test's own), so the wait is long;
     * latency is the bench's to measure (`npm run bench -- live`), not this helper's.
     */
    next(pred: (f: Frame) => boolean, ms = 30_000): Promise<Frame> {
      const seen = frames.find(pred);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const w = {
          pred,
          resolve: (f: Frame) => {
            clearTimeout(t);
            resolve(f);
          },
        };
        const t = setTimeout(() => {
          waiters.splice(waiters.indexOf(w), 1);
          reject(
            new Error(`no matching frame in ${ms} ms: ${JSON.stringify(frames.map((x) => [x.event, x.data?.type]))}`),
          );
        }, ms);
        waiters.push(w);
      });
    },
    close: () => ctrl.abort(),
  };
}

export const isChange =
  (type: string, pred: (payload: any) => boolean = () => true) =>
  (f: Frame) =>
    f.event === 'change' && f.data?.type === type && pred(f.data.payload ?? {});
