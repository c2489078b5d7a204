import { type EntityItem, entity, shape } from '../db/entity.ts';
import type { Rule } from './rule.ts';

/**
 * A named audience (docs/audiences.md): its rule, and how many people it selected when it was last
 * written (`count`, `countedAt`: recomputed by every write, never by a read). Listed by name on gsi1.
 */
export const Audience = entity({
  name: 'Audience',
  fields: shape<{
    id: string;
    name: string;
    /** The name lower-cased: the list's order. */
    nameLower: string;
    rule: Rule;
    count: number;
    countedAt: string;
    createdAt: string;
    updatedAt: string;
    /** Moved by every write: a change is conditioned on the one read. */
    rev: number;
    /** Who created it, and who last changed it. */
    createdBy: string;
    actorId: string;
  }>(),
  key: { pk: ['AUDIENCE', 'id'], sk: ['AUDIENCE'] },
  indexes: { byName: { index: 'gsi1', pk: ['AUDIENCES'], sk: ['nameLower', 'id'] } },
});
export type AudienceItem = EntityItem<typeof Audience>;
