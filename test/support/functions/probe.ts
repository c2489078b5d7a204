import { threadId } from 'node:worker_threads';
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import type { Context } from 'aws-lambda';
import { SECRET_NAMES, SECRETS } from '../../../shared/config/secrets.ts';
import { entity, shape } from '../../../shared/db/entity.ts';
import { getItem, putMany, write } from '../../../shared/db/table.ts';
import { logger } from '../../../shared/observability/logger.ts';
import { bucketName, s3 } from '../../../shared/storage/client.ts';
import { state } from './shared-state.ts';

/**
 * A handler for the local runtime's own tests (test/foundation/local-lambda.test.ts): does what the
 * event asks and answers what happened, the AWS error's name and status included.
 */
export type ProbeEvent =
  | { op: 'get-item' | 'put-item' | 'update-session' | 'update-user'; key: string }
  | { op: 'get-object' | 'put-object'; key: string }
  | { op: 'put-many'; keys: string[] }
  | { op: 'remember'; value: string }
  | { op: 'recall' }
  | { op: 'sleep'; ms: number }
  | { op: 'grow'; mb: number }
  | { op: 'secrets' }
  | { op: 'log'; addContext: boolean };

const retained: unknown[] = [];

/** The item the probe writes, under any partition key it is given (the access policy decides by that key). */
const Probe = entity({
  name: 'Probe',
  fields: shape<{ partition: string; probed?: number }>(),
  key: { pk: ['partition'], sk: ['PROBE'] },
});

export async function handler(event: ProbeEvent, context?: Context): Promise<Record<string, unknown>> {
  try {
    switch (event.op) {
      case 'get-item':
        await getItem(Probe.key({ partition: event.key }));
        break;
      case 'put-item':
        await write(Probe.put({ partition: event.key }));
        break;
      case 'put-many':
        await putMany(event.keys.map((partition) => Probe.item({ partition })));
        break;
      case 'update-session':
      case 'update-user':
        await write(
          Probe.update(
            { partition: event.key },
            { UpdateExpression: 'SET probed = :t', ExpressionAttributeValues: { ':t': 1 } },
          ),
        );
        break;
      case 'get-object':
        await s3().send(new GetObjectCommand({ Bucket: bucketName(), Key: event.key }));
        break;
      case 'put-object':
        await s3().send(new PutObjectCommand({ Bucket: bucketName(), Key: event.key, Body: 'probe' }));
        break;
      case 'remember':
        state.value = event.value;
        break;
      case 'recall':
        return { ok: true, value: state.value ?? null, threadId };
      case 'sleep':
        await new Promise((r) => setTimeout(r, event.ms));
        return { ok: true, threadId };
      case 'secrets':
        // The application secrets whose values this environment holds.
        return { ok: true, value: SECRET_NAMES.filter((name) => !!process.env[SECRETS[name].variable]).join(',') };
      case 'log': {
        // The function name the service's (module-level) logger puts on a line, as the route wrappers
        // set it (injectLambdaContext) when asked, else whatever this environment's logger last had.
        if (event.addContext && context) logger.addContext(context);
        const lines: string[] = [];
        const write = process.stderr.write; // where a warning goes
        process.stderr.write = ((chunk: string | Uint8Array) => lines.push(String(chunk)) > 0) as typeof write;
        try {
          logger.warn('probe');
        } finally {
          process.stderr.write = write;
        }
        return { ok: true, value: JSON.parse(lines.join('')).function_name ?? null };
      }
      case 'grow':
        retained.push(Buffer.alloc(0), new Array(event.mb * 131072).fill(1.5));
        break;
    }
    return { ok: true };
  } catch (err) {
    const e = err as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
    return { ok: false, name: e.name, status: e.$metadata?.httpStatusCode, message: e.message };
  }
}
