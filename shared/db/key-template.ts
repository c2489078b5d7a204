/**
 * Key and index templates as data (after ElectroDB's key composites): a template lists its segments,
 * joined with `#` in the stored attribute. A segment is a literal word in upper case (`'GRIEVANCE'`), a
 * field of the item by name (`'id'`), a field written through a format (`{ field: 'move', as: pad8 }`),
 * or, in an index template only, a derivation of the whole item (answering `undefined` while the item is
 * out of a sparse index). A template of one field answers its value as it is, so a number stays a
 * number on the numeric-sort indexes (table-definition.ts).
 */
export type FieldName<F> = Extract<keyof F, string>;
/** A field written through a format: padding, lower-casing, a shard derived from an id. */
export interface Formatted<F> {
  field: FieldName<F>;
  as: (value: any) => string | number;
}
export type KeySegment<F> = Uppercase<string> | FieldName<F> | Formatted<F>;
export type IndexSegment<F> = KeySegment<F> | ((item: F) => string | number | undefined);
export type Template<F> = readonly IndexSegment<F>[];

/** The field names a template's segments read (type level): what a key or a query must be given. */
export type TemplateFields<T> = T extends readonly (infer S)[]
  ? S extends string
    ? S extends Uppercase<S>
      ? never
      : S
    : S extends { field: infer N extends string }
      ? N
      : never
  : never;

const LITERAL = /^[A-Z0-9_]+$/;
export const isLiteral = (segment: unknown): segment is string => typeof segment === 'string' && LITERAL.test(segment);

/** The field a segment reads, if it reads one by name. */
export function segmentField(segment: IndexSegment<any>): string | undefined {
  if (typeof segment === 'string') return isLiteral(segment) ? undefined : segment;
  if (typeof segment === 'object') return segment.field;
  return undefined;
}

type Values = Record<string, unknown>;
const MISSING = Symbol('missing');

function segmentValue(segment: IndexSegment<any>, values: Values): string | number | undefined | typeof MISSING {
  if (typeof segment === 'function') return segment(values);
  if (isLiteral(segment)) return segment;
  const field = segmentField(segment)!;
  const value = values[field];
  if (value === undefined || value === null) return MISSING;
  return typeof segment === 'object' ? segment.as(value) : (value as string | number);
}

/**
 * The attribute a template stores for these values. A field it reads that the values lack answers
 * `undefined` (a sparse index the item is out of), unless `strict` (a primary key: a missing field is a
 * programming error, not an absent item).
 */
export function render(template: Template<any>, values: Values, strict = false): string | number | undefined {
  const parts: (string | number)[] = [];
  for (const segment of template) {
    const value = segmentValue(segment, values);
    if (value === MISSING || value === undefined) {
      if (strict) throw new Error(`key template: no value for ${String(segmentField(segment) ?? 'a derived segment')}`);
      return undefined;
    }
    parts.push(value);
  }
  return parts.length === 1 && typeof parts[0] === 'number' ? parts[0] : parts.join('#');
}

/**
 * What a query's sort key condition is for the leading segments these values give: the whole value when
 * every segment is given, else the segments up to the first missing one with their `#` (a prefix), or
 * nothing when the first is missing (the whole partition).
 */
export function renderPrefix(
  template: Template<any>,
  values: Values,
): { whole: string | number } | { prefix: string } | undefined {
  const parts: (string | number)[] = [];
  for (const segment of template) {
    const value = typeof segment === 'function' ? MISSING : segmentValue(segment, values);
    if (value === MISSING || value === undefined) return parts.length ? { prefix: `${parts.join('#')}#` } : undefined;
    parts.push(value);
  }
  return { whole: parts.length === 1 && typeof parts[0] === 'number' ? parts[0] : parts.join('#') };
}

/** A template as the data model documents it: `GRIEVANCE#<id>`, derived segments as `<…>`. */
export function describe(template: Template<any>): string {
  return template.map((segment) => (isLiteral(segment) ? segment : `<${segmentField(segment) ?? '…'}>`)).join('#');
}
