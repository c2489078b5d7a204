import { ruleMembers, rulesSelecting } from '../audiences/audiences.ts';
import type { Rule } from '../audiences/rule.ts';
import type { Candidate } from '../audiences/select.ts';
import {
  CompanyEvent,
  type CompanyEventItem,
  EventAudience,
  type EventAudienceItem,
  EventReader,
} from '../calendar/entities.ts';
import { readerOf } from '../calendar/events.ts';
import { page } from '../db/paging.ts';
import { isConditionFailure, transact, write } from '../db/table.ts';
import { nextPageOf } from './paged-progress.ts';

/**
 * Targeted company events (docs/audiences.md, "Targeted content"): the background side, in the
 * `company-fan-out` consumer, as for posts (audience.ts). The event and its `EventAudience` are
 * written by the request (shared/calendar/events.ts); this pass records every person the rule selected
 * at creation (joined by then, not deactivated) as an `EventReader` with copies of the event's times,
 * on their own event indexes, page by page in person-id order, resumable. Lives in the feed area
 * because it evaluates audiences (a layer above the calendar).
 */

/** Readers recorded per transaction (with the progress: at most 100 items), as for posts. */
const READERS_PAGE = 90;

/** Records the next page; throws a condition failure when another attempt recorded it first. */
async function recordPage(
  a: EventAudienceItem,
  event: CompanyEventItem,
  ids: string[],
  done: boolean,
): Promise<EventAudienceItem> {
  const at = new Date().toISOString();
  const step = nextPageOf(a, ids.length, { done, cursor: ids.at(-1) ?? a.cursor, at });
  await transact([
    EventAudience.update({ eventId: a.eventId }, step.parts),
    ...ids.map((userId) => EventReader.put(readerOf(event, userId, 'publish', at))),
  ]);
  return step.progress;
}

/** Freezes a targeted event's audience (on its `EventAudience` INSERT); resumes from the recorded cursor. */
export async function fanOutEventAudience(eventId: string, pageSize = READERS_PAGE): Promise<void> {
  let a = await EventAudience.get({ eventId }, { consistent: true });
  const event = await CompanyEvent.get({ id: eventId }, { consistent: true });
  if (!a || a.doneAt || !event) return;
  const cutoff = a.cutoff;
  const author = a.authorId;
  const members = (await ruleMembers(a.rule as Rule)).filter((m) => m.joinedAt <= cutoff && m.id !== author);
  try {
    while (!a.doneAt) {
      const after = a.cursor;
      const rest = after === null ? members : members.filter((m) => m.id > after);
      a = await recordPage(
        a,
        event,
        rest.slice(0, pageSize).map((m) => m.id),
        rest.length <= pageSize,
      );
    }
  } catch (err) {
    if (!isConditionFailure(err)) throw err; // else another attempt recorded this page: it goes on from there
  }
}

/**
 * A targeted event moved or deleted: its readers' copies of its times follow (moved), or go (deleted),
 * a page of 100 at a time. O(audience), in the background; until done, a reader's list may order it
 * by its old time (it shows the new one).
 */
export async function followEvent(eventId: string): Promise<void> {
  const event = await CompanyEvent.get({ id: eventId }, { consistent: true });
  let cursor: string | undefined;
  do {
    const found = await EventReader.query({ key: { eventId } }, page({ limit: 100, cursor }));
    for (const r of found.items) {
      if (!event) await write(EventReader.remove(r), { returnValues: 'NONE' });
      else if (r.startUtc !== event.startUtc || r.endUtc !== event.endUtc || r.endsAt !== event.endsAt)
        await write(EventReader.change(r, readerOf(event, r.userId, r.how, r.addedAt)), { returnValues: 'NONE' });
    }
    cursor = found.nextCursor ?? undefined;
  } while (cursor);
  if (!event) await write(EventAudience.remove({ eventId }), { returnValues: 'NONE' });
}

/** The dynamic event audiences still following joiners (O(such events), bounded by 1,000). */
const following = () =>
  EventAudience.queryAll({ index: 'following', key: {}, skAfter: new Date().toISOString() }, { max: 1000 });

/** A person who joined or changed: added to every dynamic event audience whose rule now selects them. */
export async function followEventJoiner(fresh: Candidate & { joinedAt: string }): Promise<void> {
  const open = await following();
  if (!open.length) return;
  const have = await EventReader.getMany(open.map((a) => ({ eventId: a.eventId, userId: fresh.id })));
  const candidates = open.filter((a, i) => !have[i] && a.authorId !== fresh.id);
  const selecting = new Set(
    await rulesSelecting(
      candidates.map((a) => a.rule as Rule),
      fresh,
    ),
  );
  for (const [i, a] of candidates.entries()) {
    if (!selecting.has(i)) continue;
    const event = await CompanyEvent.get({ id: a.eventId }, { consistent: true });
    if (!event) continue;
    try {
      await write(EventReader.create(readerOf(event, fresh.id, 'joined', new Date().toISOString())), {
        returnValues: 'NONE',
      });
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
    }
  }
}
