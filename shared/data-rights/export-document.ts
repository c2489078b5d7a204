import type { Item } from '../db/table.ts';
import { fieldsOf } from './rewrite.ts';

/**
 * The export's document (README, "People's data: export and erasure"): one JSON object, a section per
 * kind of data, every item the person owns or that is about them, in the fields it is stored with
 * except secrets (password hashes, token hashes, seals) and the table's own bookkeeping.
 */
export const EXPORT_FORMAT = 'workplace-person-data/1';

/** Every export's objects, under one prefix: the bucket's lifecycle backstop (infra/stacks/data-stack.ts) and the worker's grant. */
export const EXPORTS_PREFIX = 'exports/';
/** Where an export's objects live: its pages while it runs, then its document. */
export const exportPrefix = (exportId: string) => `${EXPORTS_PREFIX}${exportId}/`;
export const partsPrefix = (exportId: string) => `${exportPrefix(exportId)}parts/`;
export const partKey = (exportId: string, n: number) => `${partsPrefix(exportId)}${String(n).padStart(6, '0')}.json`;
export const documentKey = (exportId: string) => `${exportPrefix(exportId)}data.json`;

/** Days a ready export is kept before its document is erased. */
export const EXPORT_KEEP_DAYS = 7;
/** Seconds a link to the document stays valid (the `GET` that answers it signs a new one). */
export const EXPORT_LINK_SECONDS = 15 * 60;

/** What the export says of the grievance channel, in plain words. */
export const GRIEVANCE_STATEMENT =
  'Nothing you wrote in the anonymous grievance channel is included, and it cannot be: the channel keeps no usable link from a person to the grievances they raised or the replies they wrote, so nobody, the company included, can find them by your name.';

/** Field names that hold secrets or seals rather than the person's data. */
const SECRET = /(hash|seal|secret|password|token)/i;

/** An item as the export shows it: its own fields, secrets left out. */
export function exportedFields(item: Item): Item {
  const out: Item = {};
  for (const [k, v] of Object.entries(fieldsOf(item))) {
    if (SECRET.test(k) || k === 'ttl' || k === 'leaseUntil') continue;
    out[k] = v instanceof Set ? [...v] : v;
  }
  return out;
}

/** One page's contribution: items by section. */
export type Sections = Record<string, Item[]>;

export function mergeSections(into: Sections, from: Sections): Sections {
  for (const [name, items] of Object.entries(from)) into[name] = [...(into[name] ?? []), ...items];
  return into;
}
