import { decodeCursor, encodeCursor } from '../db/cursor.ts';
import { page } from '../db/paging.ts';
import { Grievance, GrievanceHandlingEntry } from './entities.ts';
import { deadlinesOf, nextDeadline } from './handling.ts';
import { GRIEVANCE_INDEX_SHARDS } from './shards.ts';

const CURSOR_SCOPE = 'grievance-deadlines';

/**
 * The grievances with an unmet deadline, the soonest (or longest overdue) next deadline first
 * (docs/data-model.md, Grievances: handling): per shard of the deadline index one Query of at most a
 * page after the cursor, merged by due time, then one BatchGet of the page's grievances. O(page × shards).
 * The cursor is the last entry's sort key, sealed like every cursor.
 */
export async function listDeadlines(q: { cursor?: string; limit: number }, now = new Date()) {
  const after = decodeCursor(CURSOR_SCOPE, q.cursor)?.sk as string | undefined;
  const pages = await Promise.all(
    Array.from({ length: GRIEVANCE_INDEX_SHARDS }, (_, shard) =>
      GrievanceHandlingEntry.query(
        { key: { index: 'DEADLINES', shard }, ...(after ? { skAfter: after } : {}) },
        page({ limit: q.limit }),
      ),
    ),
  );
  const merged = pages.flatMap((p) => p.items).sort((a, b) => (a.sk < b.sk ? -1 : a.sk > b.sk ? 1 : 0));
  const entries = merged.slice(0, q.limit);
  const more = merged.length > q.limit || pages.some((p) => p.nextCursor);
  const found = await Grievance.getMany(entries.map((e) => ({ id: e.grievanceId })));
  const items = found.flatMap((g) => {
    const next = g ? nextDeadline(g) : null;
    const deadlines = g ? deadlinesOf(g, now) : null;
    if (!g || !next || !deadlines) return []; // changed since the entry was read
    return [
      {
        grievance: { id: g.id, subject: g.subject, category: g.category, status: g.status, createdAt: g.createdAt },
        next: next.kind,
        dueAt: next.dueAt,
        ...deadlines,
      },
    ];
  });
  const last = entries[entries.length - 1];
  return { items, nextCursor: more && last ? encodeCursor(CURSOR_SCOPE, { sk: last.sk }) : null };
}
