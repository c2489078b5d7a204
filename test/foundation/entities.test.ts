import { existsSync, globSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { declarations } from '../../shared/db/entity.ts';

/**
 * Each entity is declared once and owns its items (docs/data-model.md): its export is named as it is
 * stored, its item type is derived from the declaration, and reads go through it.
 */
const sources = (pattern: string) =>
  globSync(pattern).filter((file) => !file.includes('node_modules') && !file.endsWith('.d.ts'));

/** Every module that declares an entity, with what it exports. */
async function declaringModules(): Promise<[string, Record<string, unknown>][]> {
  const files = sources('shared/**/*.ts').filter(
    (file) => !file.endsWith('.test.ts') && /= entity[<(]/.test(readFileSync(file, 'utf8')),
  );
  return Promise.all(
    files.map(async (file) => [file, (await import(/* @vite-ignore */ `../../${file}`)) as Record<string, unknown>]),
  );
}

const isDeclaration = (value: unknown): value is { name: string; keyTemplate: unknown } =>
  typeof value === 'object' && value !== null && 'keyTemplate' in value && 'name' in value;

describe('entity declarations', () => {
  it('name every export after the entity it stores', async () => {
    const modules = await declaringModules();
    const exported = modules.flatMap(([file, exports]) =>
      Object.entries(exports).flatMap(([name, value]) =>
        isDeclaration(value) ? [{ file, name, stored: value.name }] : [],
      ),
    );
    expect(exported.length).toBeGreaterThan(50);
    expect(exported.filter((e) => e.name !== e.stored)).toEqual([]);
    // Every declared entity is exported (and so named) by a module.
    expect(new Set(exported.map((e) => e.stored))).toEqual(new Set(declarations.keys()));
  });

  it('hold their keys: no module of key builders apart from them', () => {
    expect(existsSync('shared/db/keys.ts')).toBe(false);
    const importsKeys = new RegExp(`from '[./]*/db/${'keys'}\\.ts'`);
    expect(
      sources('{shared,functions,infra,test}/**/*.ts').filter((f) => importsKeys.test(readFileSync(f, 'utf8'))),
    ).toEqual([]);
  });

  it('import from their own area only leaf modules (which import nothing of the area): never its domain files', () => {
    const ownImports = (file: string) =>
      [...readFileSync(file, 'utf8').matchAll(/^import [^;]*? from '\.\/([^']+)';/gm)].map(
        (m) => `${dirname(file)}/${m[1]}`,
      );
    const declaring = sources('shared/**/entities.ts');
    expect(declaring.length).toBeGreaterThan(10);
    const notLeaves = declaring.flatMap((file) =>
      ownImports(file).flatMap((leaf) =>
        ownImports(leaf).length ? [`${file} imports ${leaf}, which imports ${ownImports(leaf)}`] : [],
      ),
    );
    expect(notLeaves).toEqual([]);
  });

  it('derive the item types: no hand-written item interface declares the key attributes', () => {
    // shared/db/ declares the key itself (`Key`, a query's partition), no item.
    const handWritten = sources('{shared,functions,infra}/**/*.ts')
      .filter((file) => !file.startsWith('shared/db/'))
      .filter((file) => /interface \w+[^{]*\{[^}]*\n\s+pk: string;/.test(readFileSync(file, 'utf8')));
    expect(handWritten).toEqual([]);
  });

  it('answer every read outside shared/db: no item type parameter, no cast to an item type', () => {
    const typedRead = /\b(getItem|getMany|queryPage|queryAll)<(?!Item\b|Record<)[A-Z]\w*/;
    const itemCast = /\bas (Partial<)?[A-Z]\w*Item\b/;
    const offending = sources('{shared,functions,infra,test}/**/*.ts')
      .filter((file) => !file.startsWith('shared/db/'))
      .flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .flatMap((line, i) =>
            typedRead.test(line) || itemCast.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [],
          ),
      );
    expect(offending).toEqual([]);
  });
});
