import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';

/**
 * What an earlier release stored, as `make-fixture.ts` exported it: every item of its table in DynamoDB
 * JSON, the bucket's keys, and two sessions it handed out.
 */
export interface UpgradeFixture {
  release: { commit: string; version: string };
  seededAt: string;
  secrets: { cursorSecret: string; grievanceSecret: string };
  sessions: Record<'admin' | 'member', { email: string; token: string }>;
  table: (Record<string, AttributeValue> & { pk: { S: string }; sk: { S: string } })[];
  objects: { key: string; size: number }[];
}

const DIR = join(import.meta.dirname, 'fixtures');

/** Every committed fixture, oldest release first. */
export function upgradeFixtures(): { name: string; fixture: UpgradeFixture }[] {
  return readdirSync(DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((name) => ({ name, fixture: JSON.parse(readFileSync(join(DIR, name), 'utf8')) as UpgradeFixture }));
}
