/**
 * The single table's shape, shared by the CDK stack and the local runtime (which creates or updates
 * the table at start from this same definition). Every key attribute is a string; the key patterns
 * stored in them are declared only by the entities (entity.ts, each area's `entities.ts`).
 */
export const KEY = { pk: 'pk', sk: 'sk' } as const;
export type Key = { pk: string; sk: string };

/**
 * Items of the grievance channel carry `anon: true` (stamped by their entity declarations), so the
 * change-feed consumer's event-source filter drops them before they reach it. A person's own items
 * (notifications) never carry it: it would mark them.
 */
export const ANON_ATTRIBUTE = 'anon';

/**
 * Overloaded global secondary indexes; each entity declares what it puts in them. gsi1..gsi5 sort
 * by strings; gsi6 and gsi7 sort by numbers, so a counter kept with `ADD` (post counts, scores) can be
 * its own sort key and stay ordered without a second write.
 */
export const INDEXES = ['gsi1', 'gsi2', 'gsi3', 'gsi4', 'gsi5', 'gsi6', 'gsi7'] as const;
export type IndexName = (typeof INDEXES)[number];
const NUMERIC_SORT: readonly IndexName[] = ['gsi6', 'gsi7'];

export const indexKeys = (index: IndexName) => ({ pk: `${index}pk`, sk: `${index}sk` });
export const sortKeyType = (index: IndexName): 'S' | 'N' => (NUMERIC_SORT.includes(index) ? 'N' : 'S');

/** Items with this attribute (epoch seconds) are removed by DynamoDB TTL; reads still check expiry. */
export const TTL_ATTRIBUTE = 'ttl';

export const tableDefinition = {
  partitionKey: KEY.pk,
  sortKey: KEY.sk,
  indexes: INDEXES.map((name) => ({ name, ...indexKeys(name), skType: sortKeyType(name) })),
  ttlAttribute: TTL_ATTRIBUTE,
  streamView: 'NEW_AND_OLD_IMAGES' as const,
};
