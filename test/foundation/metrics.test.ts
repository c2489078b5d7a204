import { describe, expect, it, vi } from 'vitest';
import { buildEvent } from '../../infra/local/event.ts';

describe('request metrics', () => {
  it('publishes an embedded-metric-format record per request, by route', async () => {
    // The local runtime turns metrics off; the deployed functions have them on.
    process.env.POWERTOOLS_METRICS_DISABLED = 'false';
    const { handler } = await import('../../functions/system/get-health.ts');
    const lines: string[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    try {
      const event = buildEvent(
        {
          method: 'GET',
          url: '/api/v1/health',
          httpVersion: '1.1',
          rawHeaders: [],
          headers: {},
          socket: { remoteAddress: '127.0.0.1' },
        } as never,
        Buffer.alloc(0),
        null,
      );
      const res = await handler(event, { getRemainingTimeInMillis: () => 10_000 } as never);
      expect(res.statusCode).toBe(200);
    } finally {
      spy.mockRestore();
    }
    const emf = lines
      .map((l) => {
        try {
          return JSON.parse(l);
        } catch {
          return undefined;
        }
      })
      .find((j) => j?._aws?.CloudWatchMetrics);
    expect(emf).toBeDefined();
    expect(emf.route).toBe('get-health');
    expect(emf.Requests).toBe(1);
    expect(emf.ClientErrors).toBeUndefined();
  });
});
