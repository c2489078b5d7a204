import { globSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { declarations, declaredEntities } from '../../shared/db/entity.ts';
import { describe as describeTemplate, isLiteral } from '../../shared/db/key-template.ts';
import * as keys from '../../shared/db/keys.ts';

/**
 * `docs/data-model.md` is the map of the table: it must name every declared entity and every key
 * prefix `shared/db/keys.ts` builds, and nothing that no longer exists.
 */
const doc = readFileSync('docs/data-model.md', 'utf8');
const keysSource = readFileSync('shared/db/keys.ts', 'utf8');

/** `USER`, `POSTS`, `AUTHOR`…: the upper-case words followed by `#` in these literal texts. */
const prefixesIn = (literals: string[]) =>
  new Set(literals.flatMap((text) => [...text.matchAll(/(?<![A-Za-z_])([A-Z][A-Z_]+)#/g)].map((m) => m[1])));

/** Imports every module that declares an entity, whoever imports it, and names them. */
async function loadDeclarations(): Promise<string[]> {
  const declaring = globSync('shared/**/*.ts').filter(
    (file) => !file.endsWith('.test.ts') && /= entity[<(]/.test(readFileSync(file, 'utf8')),
  );
  for (const file of declaring) await import(/* @vite-ignore */ `../../${file}`);
  return declaring;
}

describe('docs/data-model.md against the declarations', () => {
  it('lists every key prefix the declarations (and keys.ts) build, and no other', async () => {
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
    const inKeys = prefixesIn([...[...keysSource.matchAll(/`[^`]*`|'[^']*'/g)].map((m) => m[0]), ...inTemplates]);
    const inDoc = prefixesIn([...doc.matchAll(/`[^`\n]+`/g)].map((m) => m[0]));
    expect(inKeys.size).toBeGreaterThan(40);
    expect([...inKeys].filter((p) => !inDoc.has(p)).sort()).toEqual([]);
    expect([...inDoc].filter((p) => !inKeys.has(p)).sort()).toEqual([]);
  });

  it('lists every declared entity, with its key, and no other', async () => {
    // Every module that declares an entity, whoever imports it.
    const declaring = await loadDeclarations();
    expect(declaring).toContain('shared/feed/entities.ts');
    const table = doc.slice(doc.indexOf('| Entity '), doc.indexOf('\n\n', doc.indexOf('| Entity ')));
    const rows = table
      .split('\n')
      .slice(2)
      .map((row) => row.split('|').map((cell) => cell.trim()));
    const documented = new Map(rows.map((cells) => [cells[1].replaceAll('`', ''), cells[3]]));
    expect(declaredEntities.size).toBeGreaterThanOrEqual(8);
    expect([...documented.keys()].sort()).toEqual([...declaredEntities.keys()].sort());
    for (const [name, def] of declaredEntities) {
      const declared = declarations.get(name);
      if (declared) {
        // Declared with templates: the documented key is exactly theirs, and the indexes are named.
        expect(documented.get(name), name).toBe(
          `\`${describeTemplate(declared.key.pk)}\` / \`${describeTemplate(declared.key.sk)}\``,
        );
        const indexesCell = rows.find((cells) => cells[1].replaceAll('`', '') === name)![4];
        for (const ix of Object.values(declared.indexes)) expect(indexesCell, name).toContain(ix.index);
        if (Object.keys(declared.indexes).length === 0) expect(indexesCell.startsWith('—'), name).toBe(true);
        continue;
      }
      // The documented key is the declared one with its arguments as placeholders.
      const args = Array.from({ length: def.key.length }, (_, i) => `«${i}»`);
      const key = def.key(...args);
      const pattern = (text: string) => text.replace(/«\d»/g, '<>');
      const shown = documented.get(name)!.replace(/<[^>]*>/g, '<>');
      expect(shown, name).toBe(`\`${pattern(key.pk)}\` / \`${pattern(key.sk)}\``);
    }
  });

  it('has an entity for every item key keys.ts builds: no item kind is written without a declaration', async () => {
    await loadDeclarations();
    const declaredKeys = new Set([...declaredEntities.values()].map((def) => def.key));
    // Entities declared with templates build their keys themselves: keys.ts must not build one again.
    expect(Object.keys(keys).filter((name) => declarations.has(name))).toEqual([]);
    const itemKeys = Object.entries(keys).filter(
      ([name, value]) => name.endsWith('Key') && typeof value === 'function',
    );
    expect(itemKeys.filter(([, build]) => !declaredKeys.has(build as never)).map(([name]) => name)).toEqual([]);
  });
});
