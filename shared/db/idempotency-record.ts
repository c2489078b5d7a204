import type { JSONValue } from '@aws-lambda-powertools/commons/types';
import { entity, shape } from './entity.ts';
import { ANON_ATTRIBUTE, TTL_ATTRIBUTE } from './table-definition.ts';

/**
 * The first outcome of a request sent with an `Idempotency-Key`, one item per (caller, key), addressed
 * by an HMAC of both (`keyTag`), so records spread over partitions, name nobody and cannot be grouped
 * by person; Powertools' fields under this table's names, expiring through the table's `ttl` after 24
 * hours. Written only by the persistence layer of idempotency-store.ts (shared/http/idempotency.ts uses it).
 */
export const IdempotencyRecord = entity({
  name: 'IdempotencyRecord',
  fields: shape<{
    /** The key tag the record is addressed by (stored so the key derives from the item). */
    keyTag: string;
    status: string;
    /** Powertools' expiry (epoch seconds), always set: records expire through the table's TTL. */
    [TTL_ATTRIBUTE]?: number;
    inProgressUntil?: number;
    payloadHash?: string;
    /** The answer; sealed (a string) on anonymous routes. */
    response?: JSONValue;
    /** A record of an anonymous (grievance) route: kept out of the change feed (table-definition.ts, ANON_ATTRIBUTE). */
    [ANON_ATTRIBUTE]?: true;
  }>(),
  key: { pk: ['IDEMPOTENCY', 'keyTag'], sk: ['IDEMPOTENCY'] },
  // Records written before they stored their key tag (shared/migrations/idempotency-forms.ts) lack it.
  legacy: ['keyTag'],
});
