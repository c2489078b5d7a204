import { globSync, readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { declarations } from '../../shared/db/entity.ts';
import { describe as describeTemplate } from '../../shared/db/key-template.ts';

/**
 * `npm run docs`: writes the entity table of `docs/data-model.md` from the declarations. Each row's key
 * and index cells are rendered from the entity's templates (literals as they are, fields as `<field>`,
 * derived segments as `<…>`); the last cell, what the entity is for, is prose kept from the committed
 * file. `test/foundation/data-model.test.ts` fails when the committed file is not what this writes.
 */
export const DATA_MODEL_FILE = 'docs/data-model.md';

const BEGIN =
  '<!-- entities: generated from the declarations by `npm run docs`; only the Notes column is edited by hand -->';
const END = '<!-- /entities -->';
const HEADER = ['Entity', 'Declared in', 'Key', 'Indexes (sparse ones marked)', 'Notes'];

/** Imports every module that declares an entity, whoever imports it: the stored name → its module. */
export async function loadDeclarations(): Promise<Map<string, string>> {
  const declaring = globSync('shared/**/*.ts')
    .filter((file) => !file.endsWith('.test.ts') && /= entity\(/.test(readFileSync(file, 'utf8')))
    .sort();
  const where = new Map<string, string>();
  for (const file of declaring) {
    const exports = (await import(pathToFileURL(file).href)) as Record<string, { name?: unknown }>;
    for (const value of Object.values(exports))
      if (typeof value?.name === 'string' && declarations.has(value.name)) where.set(value.name, file);
  }
  return where;
}

const cells = (row: string) =>
  row
    .slice(row.indexOf('|') + 1, row.lastIndexOf('|'))
    .split(' | ')
    .map((cell) => cell.trim());

/** The committed table's rows (between the markers): entity name → its last cell. */
function notesOf(doc: string): Map<string, string> {
  const start = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${DATA_MODEL_FILE}: the entity table's markers are missing`);
  const rows = doc
    .slice(start + BEGIN.length, end)
    .split('\n')
    .filter((line) => line.startsWith('| `'));
  return new Map(rows.map((row) => [cells(row)[0].replaceAll('`', ''), cells(row).at(-1) ?? '']));
}

const indexesCell = (name: string) => {
  const indexes = Object.values(declarations.get(name)?.indexes ?? {});
  if (indexes.length === 0) return '—';
  return indexes
    .map((ix) => {
      const sk = ix.sk ? ` / \`${describeTemplate(ix.sk)}\`` : ' (its sort key moved in place)';
      return `${ix.index} \`${describeTemplate(ix.pk)}\`${sk}${ix.when ? ' (sparse)' : ''}`;
    })
    .join(', ');
};

/** The table as it should read: one row per declared entity, by area then name. */
export function entityTable(where: Map<string, string>, notes: Map<string, string>): string {
  const names = [...declarations.keys()].sort(
    (a, b) => (where.get(a) ?? '').localeCompare(where.get(b) ?? '') || a.localeCompare(b),
  );
  const rows = names.map((name) => {
    const d = declarations.get(name)!;
    const key = `\`${describeTemplate(d.key.pk)}\` / \`${describeTemplate(d.key.sk)}\``;
    return [`\`${name}\``, `\`${where.get(name) ?? '?'}\``, key, indexesCell(name), notes.get(name) ?? ''];
  });
  const line = (row: string[]) => `| ${row.join(' | ')} |`;
  return [line(HEADER), line(HEADER.map(() => '---')), ...rows.map(line)].join('\n');
}

/** The document with its entity table as the declarations have it now. */
export async function generated(doc: string): Promise<string> {
  const table = entityTable(await loadDeclarations(), notesOf(doc));
  return `${doc.slice(0, doc.indexOf(BEGIN) + BEGIN.length)}\n${table}\n${doc.slice(doc.indexOf(END))}`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const doc = readFileSync(DATA_MODEL_FILE, 'utf8');
  const next = await generated(doc);
  if (next !== doc) writeFileSync(DATA_MODEL_FILE, next);
  process.stdout.write(`${DATA_MODEL_FILE}: ${next === doc ? 'unchanged' : 'written'}\n`);
}
