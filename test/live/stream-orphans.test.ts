import { describe, expect, it } from 'vitest';
import { StreamLeases } from '../../shared/live/entities.ts';
import { newMember } from '../support/api.ts';
import { openStream } from './sse-client.ts';

/**
 * Deployed, a streaming invocation goes on after its client disconnects, and nothing tells it; the
 * local gateway behaves the same. The stream's lease is renewed only by a running execution and given
 * back when it ends, so it shows whether the execution still runs. The bound: a stream ends by itself
 * at most LIVE_STREAM_MAX_SECONDS after it opened (the test runtime compresses 5–6 minutes to 40–50 s,
 * test/support/global-setup.ts), plus a poll and the release.
 */
const leases = async (userId: string) =>
  Object.keys((await StreamLeases.get({ userId }, { consistent: true }))?.leases ?? {});

describe('a stream whose client disconnected', () => {
  it('keeps running (its lease held and renewed), then ends by itself within its bound', async () => {
    const maxMs = Number(process.env.LIVE_STREAM_MAX_SECONDS) * 1000;
    const minMs = Number(process.env.LIVE_STREAM_MIN_SECONDS) * 1000;
    const m = await newMember();
    const opened = Date.now();
    const s = await openStream(m.token);
    await s.next((f) => f.event === 'ready');
    s.close(); // the client goes away without a word
    await new Promise((r) => setTimeout(r, 5_000));
    // Still running: a stream that ended would have given its lease back.
    expect(await leases(m.id)).toHaveLength(1);
    let endedAt = 0;
    while (Date.now() - opened < maxMs + 10_000) {
      if ((await leases(m.id)).length === 0) {
        endedAt = Date.now();
        break;
      }
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(endedAt).toBeGreaterThan(0);
    // Not before its drawn life (it was not stopped by the disconnect), and within the bound.
    expect(endedAt - opened).toBeGreaterThanOrEqual(minMs);
    expect(endedAt - opened).toBeLessThanOrEqual(maxMs + 3_000);
  }, 70_000);
});
