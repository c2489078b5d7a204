import type { JSONValue } from '@aws-lambda-powertools/commons/types';
import {
  IdempotencyItemAlreadyExistsError,
  IdempotencyItemNotFoundError,
  IdempotencyRecordStatus,
} from '@aws-lambda-powertools/idempotency';
import {
  BasePersistenceLayer,
  IdempotencyRecord as PowertoolsRecord,
} from '@aws-lambda-powertools/idempotency/persistence';
import { IdempotencyRecord } from './idempotency-record.ts';
import { isConditionFailure, write } from './table.ts';
import { ANON_ATTRIBUTE, TTL_ATTRIBUTE } from './table-definition.ts';

/**
 * What the handler wrapper hands Powertools for one request: the record's address (an HMAC of caller
 * and key) and the request's keyed fingerprint. Neither can be read back into a person or a body.
 */
export interface IdempotentRequest {
  keyTag: string;
  fingerprint: string;
}

/**
 * How records of anonymous (grievance) routes keep their answers unreadable at rest: an answer can
 * hold a reply's body, its mentions or a handler's identity, which grievance items only store sealed.
 */
export interface AnswerSealing {
  seal(text: string, context: string): string;
  unseal(sealed: string, context: string): string | null;
}

/**
 * Powertools' idempotency persistence on the single table. Unlike its DynamoDBPersistenceLayer with a
 * sort key (one static partition for every record: a hot key as the company grows), each record has
 * its own partition, `IDEMPOTENCY#<key tag>` (idempotency-record.ts), and expires through the table's `ttl`.
 * Records of anonymous (grievance) routes carry `anon: true`, so like every grievance item they never
 * reach the change-feed consumer, and their answers are sealed. docs/data-model.md, section Idempotency.
 */
export class TableIdempotencyStore extends BasePersistenceLayer {
  /** `anonymous`: the route is a grievance route, and how to seal its answers. */
  constructor(private readonly anonymous?: AnswerSealing) {
    super();
  }

  /** The key tag is already a keyed hash of caller and key; Powertools' own (unkeyed) hash is not used. */
  protected override getHashedIdempotencyKey(data: JSONValue): string {
    return (data as unknown as IdempotentRequest).keyTag;
  }

  private anonMark(): { [ANON_ATTRIBUTE]?: true } {
    return this.anonymous ? { [ANON_ATTRIBUTE]: true } : {};
  }

  /** Sealed answers are bound to their record (the partition key is the sealing context). */
  private storedAnswer(idempotencyKey: string, response: JSONValue | undefined): JSONValue {
    if (!this.anonymous) return response ?? null;
    return this.anonymous.seal(JSON.stringify(response ?? null), IdempotencyRecord.key({ keyTag: idempotencyKey }).pk);
  }

  private answer(idempotencyKey: string, stored: JSONValue | undefined): JSONValue | undefined {
    if (!this.anonymous || stored === undefined) return stored;
    const text = this.anonymous.unseal(String(stored), IdempotencyRecord.key({ keyTag: idempotencyKey }).pk);
    if (text === null) throw new Error('An idempotency record holds an answer that cannot be unsealed.');
    return JSON.parse(text) as JSONValue;
  }

  protected async _getRecord(idempotencyKey: string): Promise<PowertoolsRecord> {
    const item = await IdempotencyRecord.get({ keyTag: idempotencyKey }, { consistent: true });
    if (!item) throw new IdempotencyItemNotFoundError();
    return new PowertoolsRecord({
      idempotencyKey,
      status: item.status as PowertoolsRecord['status'],
      expiryTimestamp: item[TTL_ATTRIBUTE],
      inProgressExpiryTimestamp: item.inProgressUntil,
      payloadHash: item.payloadHash,
      responseData: this.answer(idempotencyKey, item.response),
    });
  }

  /**
   * Claims the key: succeeds when no record exists, the record expired (TTL deletes lazily), or a
   * first attempt is still marked in progress past its function's deadline (it can no longer finish).
   */
  protected async _putRecord(record: PowertoolsRecord): Promise<void> {
    const now = Date.now();
    try {
      await write(
        IdempotencyRecord.put(
          {
            keyTag: record.idempotencyKey,
            ...this.anonMark(),
            status: record.getStatus(),
            [TTL_ATTRIBUTE]: record.expiryTimestamp,
            inProgressUntil: record.inProgressExpiryTimestamp,
            payloadHash: record.payloadHash,
          },
          {
            ConditionExpression:
              'attribute_not_exists(pk) OR #ttl < :now OR (#status = :inProgress AND #until < :nowMs)',
            ExpressionAttributeNames: { '#ttl': TTL_ATTRIBUTE, '#status': 'status', '#until': 'inProgressUntil' },
            ExpressionAttributeValues: {
              ':now': Math.floor(now / 1000),
              ':nowMs': now,
              ':inProgress': IdempotencyRecordStatus.INPROGRESS,
            },
          },
        ),
      );
    } catch (err) {
      if (isConditionFailure(err)) {
        throw new IdempotencyItemAlreadyExistsError('A record already exists for this idempotency key.');
      }
      throw err;
    }
  }

  /** Completes the record with the answer; sets every attribute, so it stands alone even if recreated. */
  protected async _updateRecord(record: PowertoolsRecord): Promise<void> {
    const marker = { entity: IdempotencyRecord.name, keyTag: record.idempotencyKey, ...this.anonMark() };
    const names: Record<string, string> = { '#ttl': TTL_ATTRIBUTE, '#status': 'status', '#response': 'response' };
    const values: Record<string, unknown> = {
      ':status': record.getStatus(),
      ':ttl': record.expiryTimestamp,
      ':response': this.storedAnswer(record.idempotencyKey, record.responseData),
      ':payloadHash': record.payloadHash ?? null,
    };
    const sets = ['#status = :status', '#ttl = :ttl', '#response = :response', 'payloadHash = :payloadHash'];
    for (const [attr, value] of Object.entries(marker)) {
      names[`#${attr}`] = attr;
      values[`:${attr}`] = value;
      sets.push(`#${attr} = :${attr}`);
    }
    await write(
      IdempotencyRecord.update(
        { keyTag: record.idempotencyKey },
        {
          UpdateExpression: `SET ${sets.join(', ')} REMOVE inProgressUntil`,
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        },
      ),
      { returnValues: 'NONE' },
    );
  }

  protected async _deleteRecord(record: PowertoolsRecord): Promise<void> {
    await write(IdempotencyRecord.remove({ keyTag: record.idempotencyKey }));
  }
}
