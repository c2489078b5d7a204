import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DATA_MODEL_FILE, generated, loadDeclarations } from '../../infra/docs/data-model-tables.ts';
import { declarations } from '../../shared/db/entity.ts';
import { isLiteral } from '../../shared/db/key-template.ts';

/**
 * `docs/data-model.md` is the map of the table: it must name every declared entity where it is
 * declared, with the key its templates build and the indexes it declares, and every key prefix the
 * templates build, and nothing that no longer exists. Everything here is read from the declarations.
 */
const doc = readFileSync(DATA_MODEL_FILE, 'utf8');

/** `USER`, `POSTS`, `AUTHOR`…: the upper-case words followed by `#` in these literal texts. */
const prefixesIn = (literals: string[]) =>
  new Set(literals.flatMap((text) => [...text.matchAll(/(?<![A-Za-z_])([A-Z][A-Z_]+)#/g)].map((m) => m[1])));

describe('docs/data-model.md against the declarations', () => {
  it('lists every key prefix the declarations build, and no other', async () => {
    await loadDeclarations();
    const inTemplates = [...declarations.values()].flatMap((d) =>
      [d.key.pk, d.key.sk, ...Object.values(d.indexes).flatMap((ix) => [ix.pk, ix.sk ?? []])].flatMap((template) =>
        // A word followed by another segment is a prefix (`USER#`); the last one is a whole key (`PROFILE`).
        template
          .slice(0, -1)
          .filter(isLiteral)
          .map((word) => `${word}#`),
      ),
    );
    const built = prefixesIn(inTemplates);
    const inDoc = prefixesIn([...doc.matchAll(/`[^`\n]+`/g)].map((m) => m[0]));
    expect(built.size).toBeGreaterThan(40);
    expect([...built].filter((p) => !inDoc.has(p)).sort()).toEqual([]);
    expect([...inDoc].filter((p) => !built.has(p)).sort()).toEqual([]);
  });

  it('holds the entity table `npm run docs` writes from the declarations (keys, indexes, where declared)', async () => {
    const where = await loadDeclarations();
    expect(where.get('Post')).toBe('shared/feed/entities.ts');
    expect(where.size).toBe(declarations.size);
    expect(await generated(doc)).toBe(doc);
  });
});
