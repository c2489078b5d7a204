import { globSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { declarations } from '../../shared/db/entity.ts';
import { describe as describeTemplate, isLiteral } from '../../shared/db/key-template.ts';

/**
 * `docs/data-model.md` is the map of the table: it must name every declared entity where it is
 * declared, with the key its templates build and the indexes it declares, and every key prefix the
 * templates build, and nothing that no longer exists. Everything here is read from the declarations.
 */
const doc = readFileSync('docs/data-model.md', 'utf8');

/** `USER`, `POSTS`, `AUTHOR`…: the upper-case words followed by `#` in these literal texts. */
const prefixesIn = (literals: string[]) =>
  new Set(literals.flatMap((text) => [...text.matchAll(/(?<![A-Za-z_])([A-Z][A-Z_]+)#/g)].map((m) => m[1])));

/** Imports every module that declares an entity, whoever imports it: the stored name → its module. */
async function loadDeclarations(): Promise<Map<string, string>> {
  const declaring = globSync('shared/**/*.ts').filter(
    (file) => !file.endsWith('.test.ts') && /= entity\(/.test(readFileSync(file, 'utf8')),
  );
  const where = new Map<string, string>();
  for (const file of declaring) {
    const exports = (await import(/* @vite-ignore */ `../../${file}`)) as Record<string, { name?: unknown }>;
    for (const value of Object.values(exports))
      if (typeof value?.name === 'string' && declarations.has(value.name)) where.set(value.name, file);
  }
  return where;
}

/** The entity table's rows: stored name → its cells. */
function documentedRows(): Map<string, string[]> {
  const table = doc.slice(doc.indexOf('| Entity '), doc.indexOf('\n\n', doc.indexOf('| Entity ')));
  const rows = table
    .split('\n')
    .slice(2)
    .map((row) => row.split('|').map((cell) => cell.trim()));
  return new Map(rows.map((cells) => [cells[1].replaceAll('`', ''), cells]));
}

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

  it('lists every declared entity where it is declared, with its key and indexes, and no other', async () => {
    const where = await loadDeclarations();
    expect(where.get('Post')).toBe('shared/feed/entities.ts');
    const rows = documentedRows();
    expect([...rows.keys()].sort()).toEqual([...declarations.keys()].sort());
    for (const [name, declared] of declarations) {
      const [, , declaredIn, key, indexes] = rows.get(name)!;
      expect(declaredIn, name).toBe(`\`${where.get(name)}\``);
      // The key cell is the templates rendered: literals as they are, fields as `<field>`.
      expect(key, name).toBe(`\`${describeTemplate(declared.key.pk)}\` / \`${describeTemplate(declared.key.sk)}\``);
      for (const ix of Object.values(declared.indexes)) expect(indexes, name).toContain(ix.index);
      if (Object.keys(declared.indexes).length === 0) expect(indexes.startsWith('—'), name).toBe(true);
    }
  });
});
