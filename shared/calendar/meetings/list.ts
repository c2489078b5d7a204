import { decodeCursor, encodeCursor } from '../../db/cursor.ts';
import { type Item, queryAll } from '../../db/table.ts';
import { invalid } from '../../errors.ts';
import { migrationDone } from '../../migrations/done.ts';
import { WINDOW_INDEXES_MIGRATION } from '../../migrations/window-indexes.ts';
import { instant, startOfCompanyDay } from '../../util/time.ts';
import { isSuperAdmin, type Viewer } from '../people.ts';
import { LONG_MEETING_MS, Meeting, type MeetingItem, MeetingSeat, type MeetingSeatItem } from './entities.ts';
import { canSee, statusOf } from './model.ts';
import type { MeetingStatus, MeetingType } from './types.ts';

/**
 * `GET /meetings`: a plain array, soonest first, of the meetings the viewer organizes or joins (every
 * meeting for a super admin, or one person's with `employeeId`) that overlap a time window (decisions
 * §4): `from` (meetings ending at or after it) defaults to the start of today in the company's
 * timezone, `to` (meetings starting at or before it) to 92 days after `from`; a window longer than 366
 * days is a 400. At most PAGE meetings an answer; when more may follow, `nextCursor` (sealed: the
 * position and the window) gives the rest.
 *
 * What a page reads, whatever the company's size or age (docs/data-model.md, Calendar):
 * - the short meetings by start (gsi1 for a person, the organizer's meetings and the seats of those
 *   they join; gsi3 for every meeting), from LONG_MEETING_MS before `from` to `to`, filtered on
 *   ending at or after `from`: the window's meetings in order, plus those of the few hours before it;
 * - the long meetings that started before that and are still running at `from`, from their sparse
 *   by-end index (gsi6 / gsi7), which holds only meetings longer than LONG_MEETING_MS;
 * - the meetings of the seats among them in one BatchGet; every filter is then checked on the meeting.
 * At most PAGE candidates a round and READ_BUDGET in all, so an answer narrowed by `type`, `status` or
 * `search` may hold fewer than PAGE meetings and still carry the next cursor.
 */
export interface MeetingFilters {
  from?: string;
  to?: string;
  employeeId?: string;
  type?: MeetingType;
  status?: MeetingStatus;
  search?: string;
  cursor?: string;
}

export const MEETINGS_PAGE = 500;
/**
 * About how many bytes one answer may hold: 500 meetings with long descriptions and 100 participants
 * each would pass Lambda's 6 MB, so an answer also stops near 1 MB and leaves the rest to its `Link`.
 */
const ANSWER_BYTES = 1024 * 1024;
/** A generous estimate of a meeting's size in the answer (each participant as id, name, e-mail and image). */
const answerBytes = (m: MeetingItem) =>
  Buffer.byteLength(m.topic) +
  Buffer.byteLength(m.description ?? '') +
  Buffer.byteLength(m.meetLink) +
  (m.recordingLink?.length ?? 0) +
  (m.transcriptLink?.length ?? 0) +
  m.externalEmails.reduce((n, e) => n + e.length + 3, 0) +
  (m.participantIds.length + 1) * 400 +
  500;
const READ_BUDGET = 4 * MEETINGS_PAGE;
const DAY_MS = 86_400_000;
export const DEFAULT_WINDOW_DAYS = 92;
export const MAX_WINDOW_DAYS = 366;

type Entry = MeetingItem | MeetingSeatItem;
interface Window {
  from: string;
  to: string;
}
/** What the cursor seals: the last index position answered and the window, which a later day must not move. */
interface Position {
  after: string;
  from: string;
  to: string;
}

/** The index position of a calendar entry (gsi1sk / gsi3sk: `<startUtc>#<meetingId>`). */
const positionOf = (e: Entry) => `${e.startUtc}#${Meeting.is(e) ? e.id : e.meetingId}`;
/** The calendar entries among items read from a person's (or everybody's) calendar partition. */
const entriesOf = (items: Item[]): Entry[] => items.filter((i): i is Entry => Meeting.is(i) || MeetingSeat.is(i));
const iso = (ms: number) => new Date(ms).toISOString();

/** The window a request asks for (UTC instants), or null when it is empty (`from` after `to`). */
export function meetingWindow(filters: Pick<MeetingFilters, 'from' | 'to'>, now: Date): Window | null {
  const fromMs = filters.from ? instant(filters.from).ms : startOfCompanyDay(now).getTime();
  const toMs = filters.to ? instant(filters.to).ms : fromMs + DEFAULT_WINDOW_DAYS * DAY_MS;
  if (toMs - fromMs > MAX_WINDOW_DAYS * DAY_MS)
    throw invalid([`to: the window from \`from\` to \`to\` may span at most ${MAX_WINDOW_DAYS} days`]);
  if (fromMs > toMs) return null;
  return { from: iso(fromMs), to: iso(toMs) };
}

/**
 * The long meetings that started before `floor` and are still running at the window's start. Until the
 * backfill of the long-meeting index is done (shared/migrations/window-indexes.ts), they are read from
 * the older by-end index, which holds every meeting (correct, but it reads every meeting ending after
 * `from`).
 */
async function runningLong(owner: string | null, w: Window, floor: string): Promise<Entry[]> {
  const filter = { FilterExpression: 'startUtc < :floor', ExpressionAttributeValues: { ':floor': floor } };
  const indexed = await migrationDone(WINDOW_INDEXES_MIGRATION);
  const skAfter = indexed ? Date.parse(w.from) - 1 : w.from;
  const where = indexed
    ? owner
      ? ({ index: 'longByEnd', key: { organizerId: owner } } as const)
      : ({ index: 'allLongByEnd', key: {} } as const)
    : owner
      ? ({ index: 'calendarByEnd', key: { organizerId: owner } } as const)
      : ({ index: 'allByEnd', key: {} } as const);
  const found = entriesOf(await queryAll(Meeting.queryOptions({ ...where, skAfter, filter })));
  return found.sort((a, b) => (positionOf(a) < positionOf(b) ? -1 : 1));
}

/**
 * Up to `want` calendar entries after position `after`, in index order, and whether more follow. The
 * long running ones come first (they started before every short one read here).
 */
async function candidates(
  owner: string | null,
  w: Window,
  after: string | null,
  want: number,
  long: Entry[],
): Promise<{ entries: Entry[]; more: boolean }> {
  const floor = iso(Date.parse(w.from) - LONG_MEETING_MS);
  const earlier = long.filter((e) => after === null || positionOf(e) > after);
  let later: Entry[] = [];
  if (earlier.length <= want) {
    const lower = after !== null && after > floor ? after : floor;
    const range = { skBetween: [lower, `${w.to}$`] as [string, string] };
    const filter = { FilterExpression: 'endUtc >= :from', ExpressionAttributeValues: { ':from': w.from } };
    const where = owner
      ? ({ index: 'calendarByStart', key: { organizerId: owner } } as const)
      : ({ index: 'allByStart', key: {} } as const);
    // One more than wanted tells whether anything follows; the entry at `after` itself (BETWEEN is inclusive) is dropped.
    const max = want - earlier.length + 1 + (lower === after ? 1 : 0);
    const read = entriesOf(await queryAll({ ...Meeting.queryOptions({ ...where, ...range, filter }), max }));
    later = read.filter((e) => positionOf(e) !== after);
  }
  const all = [...earlier, ...later];
  return { entries: all.slice(0, want), more: all.length > want };
}

export async function listMeetings(
  viewer: Viewer,
  filters: MeetingFilters,
  now = new Date(),
): Promise<{ meetings: MeetingItem[]; nextCursor: string | null }> {
  // employeeId is honoured for super admins only; everybody else sees their own calendar.
  const owner = isSuperAdmin(viewer) ? (filters.employeeId ?? null) : viewer.userId;
  const scope = `meetings|${owner ?? '*'}|${filters.from ?? ''}|${filters.to ?? ''}`;
  const resumed = decodeCursor(scope, filters.cursor) as Position | undefined;
  const w = resumed ? { from: resumed.from, to: resumed.to } : meetingWindow(filters, now);
  if (!w) return { meetings: [], nextCursor: null };

  const search = filters.search?.toLowerCase();
  const matches = (m: MeetingItem) =>
    canSee(m, viewer) &&
    (!owner || m.organizerId === owner || m.participantIds.includes(owner)) &&
    m.endUtc >= w.from &&
    m.startUtc <= w.to &&
    (!filters.type || m.type === filters.type) &&
    (!filters.status || statusOf(m, now) === filters.status) &&
    (!search || m.topic.toLowerCase().includes(search) || (m.description ?? '').toLowerCase().includes(search));

  const long = await runningLong(owner, w, iso(Date.parse(w.from) - LONG_MEETING_MS));
  const out = new Map<string, MeetingItem>();
  let after = resumed?.after ?? null;
  let more = true;
  let read = 0;
  let bytes = 0;
  rounds: while (more && out.size < MEETINGS_PAGE && read < READ_BUDGET) {
    const round = await candidates(owner, w, after, MEETINGS_PAGE - out.size, long);
    more = round.more;
    read += round.entries.length;
    if (round.entries.length === 0) break;
    // Seats lead to their meetings in one BatchGet a round; the meeting item is the truth.
    const seats = round.entries.filter(MeetingSeat.is);
    const seated = await Meeting.getMany(seats.map((s) => ({ id: s.meetingId })));
    const byId = new Map<string, MeetingItem>();
    for (const m of [...round.entries.filter(Meeting.is), ...seated]) if (m) byId.set(m.id, m);
    for (const [i, e] of round.entries.entries()) {
      const m = byId.get(Meeting.is(e) ? e.id : e.meetingId);
      if (m && matches(m) && !out.has(m.id)) {
        // An answer stays under ANSWER_BYTES too: the rest goes to the next page.
        const size = answerBytes(m);
        if (out.size > 0 && bytes + size > ANSWER_BYTES) {
          more = true;
          break rounds;
        }
        bytes += size;
        out.set(m.id, m);
      }
      after = positionOf(round.entries[i]);
    }
  }
  // In the index's order (its sort key compares as bytes), which is how the pages follow one another.
  const meetings = [...out.values()].sort((a, b) => (`${a.startUtc}#${a.id}` < `${b.startUtc}#${b.id}` ? -1 : 1));
  const nextCursor =
    more && after !== null ? encodeCursor(scope, { after, from: w.from, to: w.to } satisfies Position) : null;
  return { meetings, nextCursor };
}
