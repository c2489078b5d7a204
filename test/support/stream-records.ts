import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  type GetRecordsCommandOutput,
  GetShardIteratorCommand,
} from '@aws-sdk/client-dynamodb-streams';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { tableName } from '../../shared/db/client.ts';

export interface StreamRecord {
  eventName: string;
  at: number;
  keys: Record<string, unknown>;
  newImage?: Record<string, any>;
  oldImage?: Record<string, any>;
}

/**
 * Reads the table's DynamoDB stream the way an operator holding it would (DynamoDB Local exposes it,
 * as infra/local/stream-poller.ts reads it): `start()` marks the current end of every shard, `read()`
 * answers every record written since.
 */
export function streamRecorder() {
  const options = { region: process.env.AWS_REGION ?? 'us-east-1', endpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB };
  const ddb = new DynamoDBClient(options);
  const streams = new DynamoDBStreamsClient(options);
  const iterators = new Map<string, string>();
  let arn = '';

  const shards = async () =>
    (await streams.send(new DescribeStreamCommand({ StreamArn: arn }))).StreamDescription?.Shards ?? [];

  return {
    async start() {
      arn = (await ddb.send(new DescribeTableCommand({ TableName: tableName() }))).Table?.LatestStreamArn ?? '';
      if (!arn) throw new Error('the table has no stream');
      for (const s of await shards()) {
        if (s.SequenceNumberRange?.EndingSequenceNumber) continue; // closed: nothing new comes
        const it = await streams.send(
          new GetShardIteratorCommand({ StreamArn: arn, ShardId: s.ShardId, ShardIteratorType: 'LATEST' }),
        );
        if (it.ShardIterator) iterators.set(s.ShardId!, it.ShardIterator);
      }
    },
    async read(): Promise<StreamRecord[]> {
      // Shards opened since start: from their beginning.
      for (const s of await shards()) {
        if (iterators.has(s.ShardId!)) continue;
        const it = await streams.send(
          new GetShardIteratorCommand({ StreamArn: arn, ShardId: s.ShardId, ShardIteratorType: 'TRIM_HORIZON' }),
        );
        if (it.ShardIterator) iterators.set(s.ShardId!, it.ShardIterator);
      }
      const out: StreamRecord[] = [];
      for (const [shard, start] of iterators) {
        let it: string | undefined = start;
        for (let i = 0; it && i < 1000; i++) {
          const page: GetRecordsCommandOutput = await streams.send(
            new GetRecordsCommand({ ShardIterator: it, Limit: 1000 }),
          );
          for (const r of page.Records ?? []) {
            const d = r.dynamodb!;
            out.push({
              eventName: r.eventName!,
              at: new Date(d.ApproximateCreationDateTime ?? 0).getTime(),
              keys: unmarshall((d.Keys ?? {}) as never),
              newImage: d.NewImage ? unmarshall(d.NewImage as never) : undefined,
              oldImage: d.OldImage ? unmarshall(d.OldImage as never) : undefined,
            });
          }
          if (!page.Records?.length) break;
          it = page.NextShardIterator;
        }
        if (it) iterators.set(shard, it);
      }
      return out;
    },
  };
}
