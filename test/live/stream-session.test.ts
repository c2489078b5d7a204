import { describe, expect, it } from 'vitest';
import { type FrameSink, runStream } from '../../shared/live/stream-session.ts';

/** A sink that records frames and can be "left" by the client. */
function fakeSink() {
  const frames: string[] = [];
  let leave: () => void = () => undefined;
  let left = false;
  const gone = new Promise<void>((resolve) => {
    leave = () => {
      left = true;
      resolve();
    };
  });
  const sink: FrameSink = {
    get closed() {
      return left;
    },
    gone,
    async send(frame) {
      if (left) return false;
      frames.push(frame);
      return true;
    },
  };
  return { sink, frames, leave, events: () => frames.map((f) => /event: (\w+)/.exec(f)?.[1]) };
}

describe('stream session', () => {
  it('ends cleanly by the deadline it is given, after ready and a ping every interval', async () => {
    const { sink, events } = fakeSink();
    const started = Date.now();
    // The deadline leaves room for the opening reads of a loaded emulator (CI once spent the whole of
    // a 600 ms deadline on them, and no ping was due before it); the end may pass it by one slow read.
    const deadlineMs = 3_000;
    const end = await runStream(sink, {
      userId: 'u',
      endBy: started + deadlineMs,
      stillSignedIn: async () => true,
      pollMs: 20,
      pingMs: 150,
    });
    expect(end).toBe('deadline');
    expect(Date.now() - started).toBeGreaterThanOrEqual(deadlineMs);
    expect(Date.now() - started).toBeLessThan(deadlineMs + 2_000);
    expect(events()[0]).toBe('ready');
    expect(events().filter((e) => e === 'ping').length).toBeGreaterThanOrEqual(2);
  });

  it('ends when the session ends (checked with each ping)', async () => {
    const { sink } = fakeSink();
    const end = await runStream(sink, {
      userId: 'u',
      endBy: Date.now() + 10_000,
      stillSignedIn: async () => false,
      pollMs: 20,
      pingMs: 50,
    });
    expect(end).toBe('signed-out');
  });

  it('stops at once when the client leaves', async () => {
    const { sink, leave } = fakeSink();
    const started = Date.now();
    const running = runStream(sink, {
      userId: 'u',
      endBy: Date.now() + 60_000,
      stillSignedIn: async () => true,
      pollMs: 5_000,
    });
    setTimeout(leave, 100);
    expect(await running).toBe('client');
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
