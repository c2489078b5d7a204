import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  type _Record,
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import type { StreamConsumer } from '../../shared/api/background.ts';
import { backgroundSettings } from '../../shared/api/function-settings.ts';
import { matchesAny } from './filter-pattern.ts';
import { type FunctionHost, outcomeError } from './function-host.ts';

/** An idle shard is read 4 times a second, Lambda's own polling rate for DynamoDB streams. */
const IDLE_POLL_MS = 250;
/** While a test waits for the feed to settle, an idle shard is read again sooner. */
const SETTLING_POLL_MS = 20;
/** New shards (DynamoDB Local rolls one over every few hours) are looked for this often, and when one closes. */
const SHARD_DISCOVERY_MS = 10_000;

/** A stream consumer's invocation: its answer (a partial batch response, or nothing), or a thrown failure. */
type StreamHandler = (event: DynamoDBStreamEvent) => Promise<unknown>;

/**
 * Plays the part of the Lambda event source mappings: reads the table's DynamoDB stream (one reader,
 * like the deployed change-feed consumer), applies each consumer's filter patterns and hands it
 * batches in order. Each consumer has a lane of its own, as each deployed mapping reads the stream on
 * its own: a consumer busy with a long batch (a company-wide fan-out) holds up its own lane only,
 * never another consumer's (the personal notices of `feed-fan-out`, the change feed). A failing batch
 * is retried a few times (from the first record a partial batch response names, like Lambda with
 * `ReportBatchItemFailures`), then skipped with a log line.
 */
export class StreamPoller {
  private running = false;
  private shardClosed = false;
  private readonly iterators = new Map<string, string>();
  private readonly done = new Set<string>();
  private loop: Promise<void> | undefined;
  private lanes: Lane[] = [];
  /**
   * When the last quiet round began: a round of reads over every shard that found nothing, begun while
   * no lane had a batch to deliver. Everything written before it, and all that those deliveries wrote,
   * has been delivered.
   */
  private quietSince = 0;

  constructor(
    private readonly host: FunctionHost,
    private readonly endpoint: string,
    private readonly tableName: string,
    private readonly consumers: StreamConsumer[],
    private readonly log: (line: string) => void,
  ) {}

  async start(): Promise<void> {
    if (this.consumers.length === 0) return;
    // Each consumer runs in environments of its own (infra/local/function-host.ts); a failed
    // invocation (an error, a timeout) is a thrown failure, as the event source mapping sees it.
    const handlers = this.consumers.map((c) => {
      const settings = backgroundSettings(c);
      const fn: StreamHandler = async (event) => {
        const outcome = await this.host.invoke(settings, event);
        if (outcome.status !== 'ok') throw outcomeError(outcome);
        return outcome.result;
      };
      return new Lane(c.name, fn, c.filters, c.batchSize ?? 100, this.log);
    });
    this.lanes = handlers;
    const creds = {
      accessKeyId: process.env.AWS_ACCESS_KEY_ID ?? 'local',
      secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY ?? 'local',
    };
    const ddb = new DynamoDBClient({
      endpoint: this.endpoint,
      region: process.env.AWS_REGION ?? 'us-east-1',
      credentials: creds,
    });
    const streams = new DynamoDBStreamsClient({
      endpoint: this.endpoint,
      region: process.env.AWS_REGION ?? 'us-east-1',
      credentials: creds,
    });
    const table = await ddb.send(new DescribeTableCommand({ TableName: this.tableName }));
    const arn = table.Table?.LatestStreamArn;
    if (!arn) throw new Error(`table ${this.tableName} has no stream`);
    this.running = true;
    let first = true;
    let discovered = 0;
    this.loop = (async () => {
      while (this.running) {
        try {
          // DynamoDB Local answers DescribeStream (and each GetRecords) by reading the stream's records
          // in its one SQLite thread: asked every poll, it held that thread most of the time.
          if (first || this.shardClosed || Date.now() - discovered >= SHARD_DISCOVERY_MS) {
            await this.discoverShards(streams, arn, first);
            discovered = Date.now();
            this.shardClosed = false;
          }
          first = false;
          const roundStarted = Date.now();
          const idleAtStart = this.lanes.every((l) => l.isIdle);
          let any = false;
          for (const [shardId, iterator] of [...this.iterators]) {
            const out = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 100 }));
            if (out.NextShardIterator) this.iterators.set(shardId, out.NextShardIterator);
            else {
              this.iterators.delete(shardId);
              this.done.add(shardId);
              this.shardClosed = true; // its child shards are read from their beginning at once
            }
            const records = (out.Records ?? []).map((r) => toLambdaRecord(r, arn));
            if (records.length === 0) continue;
            any = true;
            for (const lane of handlers) lane.offer(records);
          }
          if (!any && idleAtStart && this.iterators.size > 0) this.quietSince = roundStarted;
          if (!any) await sleep(this.settling > 0 ? SETTLING_POLL_MS : IDLE_POLL_MS);
        } catch (err) {
          this.log(`stream poller: ${(err as Error).message}`);
          await sleep(1000);
        }
      }
    })();
  }

  private async discoverShards(streams: DynamoDBStreamsClient, arn: string, atStart: boolean) {
    const desc = await streams.send(new DescribeStreamCommand({ StreamArn: arn }));
    for (const shard of desc.StreamDescription?.Shards ?? []) {
      const id = shard.ShardId!;
      if (this.iterators.has(id) || this.done.has(id)) continue;
      // At start, skip history (events of an earlier run belong to an earlier epoch); shards that
      // appear later are read from their beginning so nothing is missed.
      const closed = !!shard.SequenceNumberRange?.EndingSequenceNumber;
      if (atStart && closed) {
        this.done.add(id);
        continue;
      }
      const it = await streams.send(
        new GetShardIteratorCommand({
          StreamArn: arn,
          ShardId: id,
          ShardIteratorType: atStart ? 'LATEST' : 'TRIM_HORIZON',
        }),
      );
      if (it.ShardIterator) this.iterators.set(id, it.ShardIterator);
    }
  }

  /** Callers waiting in `settled` (the poller reads without pausing meanwhile). */
  private settling = 0;

  /**
   * Resolves once every record written before the call has been delivered to its consumers, and every
   * record their deliveries wrote too (tests wait on this instead of sleeping: `GET /_local/settled`);
   * false when that has not happened within `timeoutMs` (a consumer still busy, or failing).
   */
  async settled(timeoutMs: number): Promise<boolean> {
    const asked = Date.now();
    const until = asked + timeoutMs;
    this.settling++;
    try {
      while (this.quietSince <= asked) {
        if (!this.running || Date.now() > until) return false;
        await sleep(10);
      }
      return true;
    } finally {
      this.settling--;
    }
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
    await Promise.all(this.lanes.map((l) => l.stop()));
  }
}

/**
 * One consumer's lane: its batches in stream order, one at a time (as a mapping with a
 * parallelization factor of 1 processes a shard), apart from every other consumer's. Records that
 * arrive while a batch runs wait and go in the next batches, at most the consumer's `batchSize` each.
 */
export class Lane {
  private readonly queue: DynamoDBRecord[] = [];
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly name: string,
    private readonly fn: StreamHandler,
    private readonly filters: Record<string, unknown>[],
    private readonly batchSize: number,
    private readonly log: (line: string) => void,
  ) {}

  /** No batch running and none waiting. */
  get isIdle(): boolean {
    return this.running === undefined && this.queue.length === 0;
  }

  offer(records: DynamoDBRecord[]): void {
    const mine = records.filter((r) => matchesAny(this.filters, r));
    if (mine.length === 0 || this.stopped) return;
    this.queue.push(...mine);
    this.running ??= this.drain().finally(() => {
      this.running = undefined;
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length && !this.stopped) {
      const batch = this.queue.splice(0, this.batchSize);
      await deliverBatch(this.name, this.fn, batch, this.log);
    }
  }

  /** Resolves once every record offered so far has been delivered (or skipped). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Stops taking records; waits for the batch running now. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Where a retry starts, as Lambda reads a partial batch response: -1 when every record succeeded
 * (no response, or no failures), else the index of the lowest failed sequence number; an identifier
 * that names no record of the batch fails the whole batch.
 */
export function firstFailure(response: unknown, batch: DynamoDBRecord[]): number {
  const failures = (response as { batchItemFailures?: { itemIdentifier?: string }[] } | undefined)?.batchItemFailures;
  if (!failures?.length) return -1;
  let first = batch.length;
  for (const f of failures) {
    const i = batch.findIndex((r) => !!f.itemIdentifier && r.dynamodb?.SequenceNumber === f.itemIdentifier);
    if (i < 0) return 0;
    first = Math.min(first, i);
  }
  return first;
}

/**
 * Hands one batch to a consumer as the event source mapping does: a thrown error retries the whole
 * batch, a partial batch response retries from the first failed record (the ones before it are
 * done); after `attempts` tries what is left is skipped with a log line (deployed, its position goes
 * to the on-failure queue).
 */
export async function deliverBatch(
  name: string,
  fn: StreamHandler,
  batch: DynamoDBRecord[],
  log: (line: string) => void,
  { attempts = 3, pauseMs = 200 }: { attempts?: number; pauseMs?: number } = {},
): Promise<void> {
  let remaining = batch;
  for (let attempt = 1; ; attempt++) {
    let from: number;
    let reason: string;
    try {
      from = firstFailure(await fn({ Records: remaining }), remaining);
      if (from < 0) return;
      reason = `record ${remaining[from].dynamodb?.SequenceNumber} reported failed`;
    } catch (err) {
      from = 0;
      reason = (err as Error).message;
    }
    remaining = remaining.slice(from);
    if (attempt >= attempts) {
      log(`stream consumer ${name} failed ${remaining.length} record(s) ${attempts} times; skipping them: ${reason}`);
      return;
    }
    await sleep(pauseMs * attempt);
  }
}

/** The SDK's stream record in the shape a Lambda stream event carries. */
function toLambdaRecord(r: _Record, arn: string): DynamoDBRecord {
  const d = r.dynamodb ?? {};
  return {
    eventID: r.eventID,
    eventName: r.eventName as DynamoDBRecord['eventName'],
    eventVersion: r.eventVersion,
    eventSource: 'aws:dynamodb',
    awsRegion: r.awsRegion,
    eventSourceARN: arn,
    dynamodb: {
      ApproximateCreationDateTime: d.ApproximateCreationDateTime
        ? Math.floor(new Date(d.ApproximateCreationDateTime).getTime() / 1000)
        : undefined,
      Keys: d.Keys as never,
      NewImage: d.NewImage as never,
      OldImage: d.OldImage as never,
      SequenceNumber: d.SequenceNumber,
      SizeBytes: d.SizeBytes,
      StreamViewType: d.StreamViewType,
    },
  };
}
