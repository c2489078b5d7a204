import {
  IdempotencyConfig,
  IdempotencyItemAlreadyExistsError,
  IdempotencyValidationError,
} from '@aws-lambda-powertools/idempotency';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { TableIdempotencyStore } from '../../shared/db/idempotency-store.ts';
import { seal, unseal } from '../../shared/grievances/anonymity.ts';
import { IDEMPOTENCY_TTL_SECONDS } from '../../shared/http/idempotency.ts';

/** The persistence layer alone, against a mocked document client: what it writes, and how it reads conflicts. */
const ddb = mockClient(DynamoDBDocumentClient);
afterAll(() => ddb.restore());
beforeEach(() => ddb.reset());

function storeFor(anonymous: boolean): TableIdempotencyStore {
  const store = new TableIdempotencyStore(anonymous ? { seal, unseal } : undefined);
  store.configure({
    config: new IdempotencyConfig({
      payloadValidationJmesPath: 'fingerprint',
      expiresAfterSeconds: IDEMPOTENCY_TTL_SECONDS,
      hashFunction: 'sha256',
    }),
  });
  return store;
}

const request = { keyTag: 'tag-of-caller-and-key', fingerprint: 'fingerprint-of-request' };

describe('TableIdempotencyStore', () => {
  it('claims a key with a conditional put on its own partition, with the table TTL and the in-progress deadline', async () => {
    ddb.on(PutCommand).resolves({});
    const now = Date.now();
    await storeFor(false).saveInProgress(request, 5000);
    const [call] = ddb.commandCalls(PutCommand);
    const input = call.args[0].input;
    expect(input.Item).toMatchObject({
      pk: 'IDEMPOTENCY#tag-of-caller-and-key',
      sk: 'IDEMPOTENCY',
      entity: 'IdempotencyRecord',
      status: 'INPROGRESS',
    });
    expect(Object.keys(input.Item!).sort()).toEqual(
      // `keyTag`: the record's key argument, stored as every declared entity stores its key's (it is the pk's own suffix).
      ['entity', 'inProgressUntil', 'keyTag', 'payloadHash', 'pk', 'sk', 'status', 'ttl'].sort(),
    );
    expect(input.Item!.ttl).toBeGreaterThanOrEqual(Math.floor(now / 1000) + IDEMPOTENCY_TTL_SECONDS - 1);
    expect(input.Item!.ttl).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + IDEMPOTENCY_TTL_SECONDS);
    expect(input.Item!.inProgressUntil).toBeGreaterThanOrEqual(now + 5000);
    expect(input.Item!.inProgressUntil).toBeLessThanOrEqual(Date.now() + 5000);
    expect(input.ConditionExpression).toContain('attribute_not_exists(pk)');
    // The fingerprint is stored only as Powertools' hash of it.
    expect(input.Item!.payloadHash).not.toContain(request.fingerprint);
  });

  it('marks the records of anonymous routes for the change feed to drop, and seals their answers', async () => {
    ddb.on(PutCommand).resolves({}).on(UpdateCommand).resolves({});
    const store = storeFor(true);
    const answer = { statusCode: 201, body: '{"id":"g-1","body":"A reply naming @[u-1]"}' };
    await store.saveInProgress(request, 5000);
    await store.saveSuccess(request, answer);
    expect(ddb.commandCalls(PutCommand)[0].args[0].input.Item!.anon).toBe(true);
    const update = ddb.commandCalls(UpdateCommand)[0].args[0].input;
    expect(update.Key).toEqual({ pk: 'IDEMPOTENCY#tag-of-caller-and-key', sk: 'IDEMPOTENCY' });
    expect(update.UpdateExpression).toContain('#anon = :anon');
    expect(update.ExpressionAttributeValues![':anon']).toBe(true);
    expect(update.ExpressionAttributeValues![':status']).toBe('COMPLETED');
    const stored = update.ExpressionAttributeValues![':response'];
    expect(typeof stored).toBe('string');
    for (const clear of ['g-1', 'u-1', 'reply', '201']) expect(stored).not.toContain(clear);

    // Read back, the answer is unsealed for the replay.
    ddb.on(GetCommand).resolves({
      Item: {
        ...update.Key,
        entity: 'IdempotencyRecord',
        status: 'COMPLETED',
        payloadHash: update.ExpressionAttributeValues![':payloadHash'],
        response: stored,
      },
    });
    expect((await storeFor(true).getRecord(request)).getResponse()).toEqual(answer);
  });

  it('leaves the anon marker off other routes', async () => {
    ddb.on(PutCommand).resolves({}).on(UpdateCommand).resolves({});
    const store = storeFor(false);
    await store.saveInProgress(request, 5000);
    await store.saveSuccess(request, { statusCode: 201 });
    expect(ddb.commandCalls(PutCommand)[0].args[0].input.Item!.anon).toBeUndefined();
    expect(ddb.commandCalls(UpdateCommand)[0].args[0].input.UpdateExpression).not.toContain('anon');
    expect(ddb.commandCalls(UpdateCommand)[0].args[0].input.ExpressionAttributeValues![':response']).toEqual({
      statusCode: 201,
    });
  });

  it('reports an existing record as such, and a record of another request as a validation error', async () => {
    ddb
      .on(PutCommand)
      .rejects(new ConditionalCheckFailedException({ message: 'exists', $metadata: {} }))
      .on(GetCommand)
      .resolves({
        Item: {
          pk: 'IDEMPOTENCY#tag-of-caller-and-key',
          sk: 'IDEMPOTENCY',
          entity: 'IdempotencyRecord',
          status: 'COMPLETED',
          payloadHash: 'other',
        },
      });
    const store = storeFor(false);
    await expect(store.saveInProgress(request, 5000)).rejects.toBeInstanceOf(IdempotencyItemAlreadyExistsError);
    await expect(store.getRecord(request)).rejects.toBeInstanceOf(IdempotencyValidationError);
    expect(ddb.commandCalls(GetCommand)[0].args[0].input.ConsistentRead).toBe(true);
  });

  it('deletes the record by its key', async () => {
    ddb.on(DeleteCommand).resolves({});
    await storeFor(false).deleteRecord(request);
    expect(ddb.commandCalls(DeleteCommand)[0].args[0].input.Key).toEqual({
      pk: 'IDEMPOTENCY#tag-of-caller-and-key',
      sk: 'IDEMPOTENCY',
    });
  });
});
