import type { EntityFields } from '../db/entity.ts';
import { newSortableId } from '../db/ids.ts';
import { page } from '../db/paging.ts';
import { getMany, keyString, type TransactItem, transact } from '../db/table.ts';
import { notFound } from '../errors.ts';
import { raiserTag, seal } from './anonymity.ts';
import { type BoardFilter, boardIndex } from './board.ts';
import { Grievance, type GrievanceItem, GrievanceStatusChange, GrievanceTotals } from './entities.ts';
import { configuredPeriods, type HandlingPeriods, initialHandling } from './handling.ts';
import { handlingEntryWrites } from './handling-index.ts';
import { authoredText } from './mentions.ts';
import { isEntityId, sealContexts } from './model.ts';
import { isUnread, readMarkerKeys, seenWrite } from './read-state.ts';
import { raisedStats, statsWrites } from './stats-fields.ts';
import { raisedDeltas, totalOf, totalsWrite } from './totals.ts';
import { grievanceView } from './views.ts';
import type { Category } from './vocabulary.ts';

export interface NewGrievance {
  subject: string;
  description: string;
  category: Category;
}

/** The grievance item for a new grievance (also used by the bench to seed through the same keys). */
export function newGrievanceItem(
  raiserId: string,
  input: NewGrievance,
  at = new Date(),
  periods: HandlingPeriods = configuredPeriods(),
): GrievanceItem {
  const id = newSortableId(at);
  const createdAt = at.toISOString();
  return Grievance.item({
    id,
    subject: input.subject,
    description: input.description,
    category: input.category,
    status: 'open',
    resolvedAt: null,
    replyCount: 0,
    statusNote: null,
    statusNoteAt: null,
    createdAt,
    updatedAt: createdAt,
    moves: 0,
    raiserTag: raiserTag(raiserId, id),
    raiserSeal: seal(raiserId, sealContexts.raiser(id)),
    ...initialHandling(createdAt, periods),
  });
}

/** The entry that records the raise (fromStatus null, no handler). */
export function raisedEntry(g: GrievanceItem): EntityFields<typeof GrievanceStatusChange> {
  return {
    id: newSortableId(new Date(g.createdAt)),
    grievanceId: g.id,
    move: 0,
    fromStatus: null,
    toStatus: 'open',
    reason: 'Grievance raised',
    createdAt: g.createdAt,
  };
}

/**
 * Raises a grievance: the grievance, its raised entry, the board totals, the statistics of its day, its
 * handling index entries and the raiser's own counter (so it never counts as unread for them) in one
 * transaction. Nothing written names the raiser.
 */
export async function raiseGrievance(raiserId: string, input: NewGrievance) {
  // The raiser's own `@[id]` would name them on an anonymous grievance (mentions.ts).
  const g = newGrievanceItem(raiserId, {
    ...input,
    subject: authoredText('subject', input.subject, raiserId, 3),
    description: authoredText('description', input.description, raiserId, 20),
  });
  const items: TransactItem[] = [
    Grievance.create(g),
    GrievanceStatusChange.put(raisedEntry(g)),
    totalsWrite(raisedDeltas(g.status, g.category))!,
    ...statsWrites(raisedStats(g.createdAt, g.category, g.status)),
    ...handlingEntryWrites(null, g),
    seenWrite(raiserId),
  ];
  await transact(items);
  return grievanceView(g, false);
}

/** The grievance or a 404 (404 means the id does not exist). */
export async function loadGrievance(grievanceId: string): Promise<GrievanceItem> {
  const g = isEntityId(grievanceId) ? await Grievance.get({ id: grievanceId }, { consistent: true }) : undefined;
  if (!g) throw notFound('No such grievance.');
  return g;
}

/** One grievance as the caller sees it: the grievance and the caller's marker in one batch read. */
export async function getGrievance(callerId: string, grievanceId: string) {
  if (!isEntityId(grievanceId)) throw notFound('No such grievance.');
  const key = Grievance.key({ id: grievanceId });
  const found = await getMany([key, ...readMarkerKeys(callerId, grievanceId)], true);
  const g = found.get(keyString(key));
  if (!Grievance.is(g)) throw notFound('No such grievance.');
  return grievanceView(g, isUnread(callerId, g, found));
}

/** The caller's view of a grievance just written (its item in hand): one read of their marker. */
export async function viewFor(callerId: string, g: GrievanceItem) {
  const markers = await getMany(readMarkerKeys(callerId, g.id), true);
  return grievanceView(g, isUnread(callerId, g, markers));
}

export interface BoardQuery extends BoardFilter {
  sort?: 'latest' | 'oldest';
  cursor?: string;
  limit: number;
}

/**
 * The board and the handler queue (same answer): one Query on the index made for the filter, then one
 * batch read of the totals item and the caller's markers for the page. Cost does not grow with the
 * number of grievances.
 */
export async function listBoard(callerId: string, q: BoardQuery) {
  const filter: BoardFilter = { status: q.status, category: q.category };
  const board = await Grievance.query(
    { index: boardIndex(filter), key: filter, forward: q.sort === 'oldest' },
    page({ limit: q.limit, cursor: q.cursor }),
  );
  const totalsKey = GrievanceTotals.key({});
  const found = await getMany([totalsKey, ...board.items.flatMap((g) => readMarkerKeys(callerId, g.id))], true);
  const totals = found.get(keyString(totalsKey));
  return {
    items: board.items.map((g) => grievanceView(g, isUnread(callerId, g, found))),
    nextCursor: board.nextCursor,
    total: GrievanceTotals.is(totals) ? totalOf(totals, filter) : 0,
  };
}
