import { describe, expect, it, vi } from 'vitest';
import { buildEvent, lambdaContext } from '../../infra/local/event.ts';

/** Runs one GET /health through the deployed wrapper and answers every JSON line it wrote to stdout. */
async function healthLines(): Promise<{ status: number; lines: any[] }> {
  const { handler } = await import('../../functions/system/get-health.ts');
  const out: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out.push(String(chunk));
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
    const res = await handler(event, lambdaContext('workplace-get-health'));
    const lines = out
      .flatMap((chunk) => chunk.split('\n'))
      .filter(Boolean)
      .map((l) => {
        try {
          return JSON.parse(l);
        } catch {
          return undefined;
        }
      })
      .filter(Boolean);
    return { status: res.statusCode ?? 0, lines };
  } finally {
    spy.mockRestore();
  }
}

describe('observability of a deployed function', () => {
  it('stamps every log line with the Lambda context and flushes bounded metrics once per request', async () => {
    // The local runtime turns metrics off and logs at WARN in tests; deployed functions have both on.
    process.env.POWERTOOLS_METRICS_DISABLED = 'false';
    process.env.AWS_LAMBDA_INITIALIZATION_TYPE = 'on-demand'; // as Lambda sets it
    process.env.LOG_LEVEL = 'INFO';

    const first = await healthLines();
    expect(first.status).toBe(200);
    const request = first.lines.find((l) => l.message === 'request');
    expect(request).toBeDefined();
    expect(request.function_request_id).toMatch(/[0-9a-f-]{36}/);
    expect(request.function_name).toBe('workplace-get-health');
    expect(request.cold_start).toBe(true);

    // Metrics: only the `service` dimension (never the route: one series per metric, not per route).
    const emf = first.lines.find((l) => l._aws?.CloudWatchMetrics && l.Requests !== undefined);
    expect(emf).toBeDefined();
    expect(emf._aws.CloudWatchMetrics[0].Dimensions).toEqual([['service']]);
    expect(emf.route).toBeUndefined();
    expect(emf.Requests).toBe(1);
    expect(emf.ClientErrors).toBeUndefined();
    // The cold start is counted by area, a bounded dimension.
    const cold = first.lines.find((l) => l._aws?.CloudWatchMetrics && l.ColdStart !== undefined);
    expect(cold?.function_name).toBe('system');

    const second = await healthLines();
    const again = second.lines.find((l) => l.message === 'request');
    expect(again.cold_start).toBe(false);
    expect(again.function_request_id).not.toBe(request.function_request_id);
    expect(second.lines.some((l) => l.ColdStart !== undefined)).toBe(false);
  });
});
