import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { cruise } from 'dependency-cruiser';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The areas' layers (.dependency-cruiser.cjs, docs/architecture.md "Areas in layers"), held by
 * `npm run lint`: the rules refuse an import against the order, and main has none.
 */
const config = createRequire(import.meta.url)('../../.dependency-cruiser.cjs');
const ruleSet = { forbidden: config.forbidden };
/** As the lint runs it (type-only imports counted); a fixture has no tsconfig of its own. */
const options = { ...config.options, ruleSet, validate: true };

const violationsOf = async (root: string, paths: string[]) => {
  const own = root === process.cwd() ? options : { ...options, tsConfig: undefined };
  const result = await cruise(paths, { ...own, baseDir: root });
  const output = typeof result.output === 'string' ? JSON.parse(result.output) : result.output;
  const found = output.summary.violations.map((v: any) => `${v.rule.name}: ${v.from} -> ${v.to}`) as string[];
  return Object.assign(found, { cruised: output.summary.totalCruised as number });
};

const fixture = mkdtempSync(join(tmpdir(), 'layers-'));
afterAll(() => rmSync(fixture, { recursive: true, force: true }));
const put = (path: string, text: string) => {
  mkdirSync(dirname(join(fixture, path)), { recursive: true });
  writeFileSync(join(fixture, path), text);
};

describe('areas in layers', () => {
  it('refuses a domain area importing the API layer, a new area outside the order, and shared importing a root', async () => {
    put('shared/api/route-def.ts', 'export type Route = string;\n');
    put('shared/people/wrong.ts', "import type { Route } from '../api/route-def.ts';\nexport const y: Route = 'x';\n");
    put('shared/api/right.ts', "import { y } from '../people/wrong.ts';\nexport const z = y;\n");
    put('shared/newarea/thing.ts', 'export const t = 1;\n');
    put('shared/feed/uses-new.ts', "import { t } from '../newarea/thing.ts';\nexport const u = t;\n");
    put('functions/root.ts', 'export const r = 1;\n');
    put('shared/db/uses-root.ts', "import { r } from '../../functions/root.ts';\nexport const v = r;\n");
    const found = await violationsOf(fixture, ['shared', 'functions']);
    expect(found).toEqual(
      expect.arrayContaining([
        'layer-people: shared/people/wrong.ts -> shared/api/route-def.ts',
        'every-area-in-a-layer: shared/feed/uses-new.ts -> shared/newarea/thing.ts',
        'shared-below-roots: shared/db/uses-root.ts -> functions/root.ts',
      ]),
    );
    // The API layer standing on people is the order itself.
    expect(found.filter((v) => v.includes('shared/api/right.ts'))).toEqual([]);
  });

  it('finds no import against the order in shared/, functions/ and infra/', { timeout: 120_000 }, async () => {
    const found = await violationsOf(process.cwd(), ['shared', 'functions', 'infra']);
    expect(found.cruised).toBeGreaterThan(500);
    expect([...found]).toEqual([]);
  });
});
