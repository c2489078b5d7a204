import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { deliverBatch, firstFailure, Lane } from '../../infra/local/stream-poller.ts';

const records = (n: number): DynamoDBRecord[] =>
  Array.from({ length: n }, (_, i) => ({ eventID: `e${i}`, dynamodb: { SequenceNumber: String(100 + i) } }));
const seqs = (event: DynamoDBStreamEvent) => event.Records.map((r) => r.dynamodb?.SequenceNumber);
const quiet = { attempts: 3, pauseMs: 1 };

describe('local stream poller: partial batch responses, as Lambda reads them', () => {
  it('retries from the first record a partial batch response names, not the records before it', async () => {
    const calls: (string | undefined)[][] = [];
    const failOnce = new Set(['102']);
    const handler = async (event: DynamoDBStreamEvent) => {
      calls.push(seqs(event));
      const failed = event.Records.find((r) => failOnce.delete(r.dynamodb!.SequenceNumber!));
      return { batchItemFailures: failed ? [{ itemIdentifier: failed.dynamodb!.SequenceNumber! }] : [] };
    };
    await deliverBatch('test', handler, records(5), () => undefined, quiet);
    expect(calls).toEqual([
      ['100', '101', '102', '103', '104'],
      ['102', '103', '104'],
    ]);
  });

  it('retries the whole batch when the handler throws, and gives up after the attempts with a log line', async () => {
    const calls: number[] = [];
    const lines: string[] = [];
    const handler = async (event: DynamoDBStreamEvent) => {
      calls.push(event.Records.length);
      throw new Error('boom');
    };
    await deliverBatch('test', handler, records(3), (l) => lines.push(l), quiet);
    expect(calls).toEqual([3, 3, 3]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('boom');
  });

  it('reads the lowest failed sequence number; an unknown or empty identifier fails the whole batch', () => {
    const batch = records(4);
    expect(firstFailure(undefined, batch)).toBe(-1);
    expect(firstFailure({ batchItemFailures: [] }, batch)).toBe(-1);
    expect(firstFailure({ batchItemFailures: [{ itemIdentifier: '103' }, { itemIdentifier: '101' }] }, batch)).toBe(1);
    expect(firstFailure({ batchItemFailures: [{ itemIdentifier: '999' }] }, batch)).toBe(0);
    expect(firstFailure({ batchItemFailures: [{ itemIdentifier: '' }] }, batch)).toBe(0);
  });
});

describe('local stream poller: a lane per consumer, as each deployed event source mapping', () => {
  it('a consumer busy with a long batch holds up its own lane only; each lane keeps stream order in its batch size', async () => {
    const all = records(6);
    let release!: () => void;
    const busy = new Promise<void>((r) => (release = r));
    const slowCalls: (string | undefined)[][] = [];
    const quickCalls: (string | undefined)[][] = [];
    const slow = new Lane(
      'company-fan-out',
      async (event) => {
        slowCalls.push(seqs(event));
        await busy; // a fan-out to everybody
      },
      [{ dynamodb: { SequenceNumber: ['100', '103', '104', '105'] } }],
      2,
      () => undefined,
    );
    const quick = new Lane(
      'feed-fan-out',
      async (event) => void quickCalls.push(seqs(event)),
      [{ dynamodb: { SequenceNumber: ['101', '102'] } }],
      10,
      () => undefined,
    );
    slow.offer(all.slice(0, 3));
    quick.offer(all.slice(0, 3));
    await new Promise((r) => setTimeout(r, 20));
    // The quick lane has delivered its records although the slow one is still on its first batch.
    expect(quickCalls).toEqual([['101', '102']]);
    expect(slowCalls).toEqual([['100']]);
    slow.offer(all.slice(3));
    release();
    await slow.idle();
    expect(slowCalls).toEqual([['100'], ['103', '104'], ['105']]);
  });
});
