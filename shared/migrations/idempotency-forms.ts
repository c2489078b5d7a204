import type { LegacyForm } from './stored-form.ts';

/** Older stored forms of idempotency records (CHANGELOG.md, 0.2.0). */
export const idempotencyLegacyForms: LegacyForm[] = [
  {
    entity: 'IdempotencyRecord',
    matches: (i) => i.entity === 'IdempotencyRecord' && i.keyTag === undefined,
    fields: (i) => ({ keyTag: i.pk.slice('IDEMPOTENCY#'.length) }),
    change: 'idempotency records store their key tag (keyTag)',
  },
];
