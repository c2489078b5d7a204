import { env } from '../config/env.ts';
import { getItem, type Item, isConditionFailure, type TransactItem, transact } from '../db/table.ts';
import { PresentCounter } from '../hr/entities.ts';
import { LIVE_MAX_REPLICAS, LiveEvent, LiveReplica } from '../live/entities.ts';
import { eventRange, readHead } from '../live/event-log.ts';
import { Notification, type NotificationItem } from '../notifications/entities.ts';
import { notificationContent, sealedContent } from '../notifications/notifications.ts';
import { avatarObjectPrefixes } from '../people/avatar-tag.ts';
import { changePerson } from '../people/change-person.ts';
import { Team, User } from '../people/entities.ts';
import { PushToken } from '../push/entities.ts';
import { forgetEndpointOf } from '../push/tokens.ts';
import { eraseObjects } from '../storage/erase-objects.ts';
import { PersonErasure, type PersonErasureItem } from './entities.ts';
import { exportPrefix } from './export-document.ts';
import { renewLease, writeHeld } from './lease.ts';
import { fieldsOf, removeAttributes, removeItem, rewriteItem } from './rewrite.ts';
import { ruleOf } from './rules.ts';
import { carries, replaceEverywhere, scanPage } from './table-walk.ts';
import { advanced } from './walk-progress.ts';

/**
 * Erasure of a person who left (README, "People's data: export and erasure"): the request (or the
 * retention sweep) records the job and marks the person; the background worker (work.ts) walks the
 * table page by page (table-walk.ts), applying each kind's rule (rules.ts) to every item that carries
 * the person, then erases their avatar's every version, and ends by keeping only the audit record.
 * Each page's writes are conditioned on the items as read and the page's progress is recorded after
 * them, so a stopped run is completed by the next from the last recorded page (a page done twice finds
 * nothing left that carries the person).
 */

/** Whom an erasure erases, while it runs. */
interface Subject {
  userId: string;
  email: string;
  name: string;
  pseudonym: string;
}

/** The name others' notifications about the person show instead of theirs. */
export const FORMER_MEMBER = 'Former member';

/** What erasing one stored item takes: its writes (one transaction) and the object prefixes to erase. */
interface ItemErasure {
  writes: TransactItem[];
  objects: string[];
  /** The count it adds to (`<Entity>.deleted`, `<Entity>.kept`, or `<Entity>.left` for an unknown kind). */
  outcome: 'deleted' | 'kept' | 'left';
  /** What goes outside the table once the writes are done (a push endpoint). */
  after?: () => Promise<void>;
}

/**
 * What erasure does with one stored item, or null when it does not carry the person. Others'
 * notifications carry them only inside their seal (the actor, a name in the preview): opened here.
 * Their own profile is erased only when asked for (`ownProfile`, after the walk).
 */
export async function erasureOf(
  item: Item,
  s: Subject,
  { ownProfile = false }: { ownProfile?: boolean } = {},
): Promise<ItemErasure | null> {
  const kind = item.entity as string;
  const rule = ruleOf(kind);
  if (rule?.erase === 'untouched') return null;
  const needles = { userId: s.userId, email: s.email };
  if (Notification.is(item)) return notificationErasure(item, s);
  if (!carries(item, needles)) return null;
  // A kind this release does not know: left as it is, and counted in the audit record (`left.<kind>`).
  if (!rule) return { writes: [], objects: [], outcome: 'left' };
  const kept = (fields: Item = pseudonymised(item, s)): ItemErasure => ({
    writes: rewriteItem(item, fields, (k) => k.split(s.userId).join(s.pseudonym)),
    objects: [],
    outcome: 'kept',
  });
  const deleted = (more: TransactItem[] = [], objects: string[] = []): ItemErasure => ({
    writes: [removeItem(item), ...more],
    objects,
    outcome: 'deleted',
  });
  if (rule.erase === 'delete') return deleted();
  if (rule.erase === 'pseudonymise') return kept();
  switch (kind) {
    case 'User':
      // Their own profile goes after the walk (erasureStep, `ownProfile`): others' profiles naming them
      // as manager are changed as people meanwhile, which moves the manager's report count on it.
      if (item.id === s.userId) return ownProfile ? deleted() : null;
      return { writes: [], objects: [], outcome: 'kept', after: () => applyPersonChange(item, s) };
    case 'TeamMember': {
      if (item.userId !== s.userId) return kept();
      const team = await Team.get({ id: item.teamId }, { consistent: true });
      return deleted(team ? [Team.add({ id: item.teamId }, { memberships: -1, membershipMoves: 1 })] : []);
    }
    case 'DirectoryShard':
    case 'DirectoryShardPosts': {
      // Their row or post count, named by their id (shared/people/derived-from-person.ts).
      const named = Object.keys(item).filter((k) => k.includes(s.userId));
      return { writes: [removeAttributes(item, named)], objects: [], outcome: 'kept' };
    }
    case 'Post': {
      if (item.authorId !== s.userId) return kept();
      // Their uploads go (PostUpload below): the post keeps its text, attributed to nobody.
      return kept({ ...pseudonymised(item, s), images: [], videos: [], documents: [] });
    }
    case 'PostUpload': {
      if (item.ownerId !== s.userId) return kept();
      return deleted([], [`posts/${item.id}/`, `pending-uploads/posts/${item.id}/`]);
    }
    case 'PushToken': {
      // The platform endpoint (deployed: an SNS endpoint holding the device's token) goes with it.
      if (!PushToken.is(item)) return deleted();
      const registration = item;
      return { ...deleted(), after: () => forgetEndpointOf(registration) };
    }
    case 'BirthdayWish':
      return item.recipientId === s.userId ? deleted() : kept();
    case 'LeaveRequest':
      return item.employeeId === s.userId ? deleted() : kept();
    case 'AttendanceRecord': {
      if (item.employeeId !== s.userId) return kept();
      // An open day counts them present: the counter moves with the record.
      return deleted(item.checkOut === null ? [PresentCounter.add({ date: item.date }, { present: -1 })] : []);
    }
    case 'DataExport': {
      // Their copies go; the record stays as the audit of who exported when, under the opaque id.
      const fields = pseudonymised(item, s);
      const open = item.status === 'running' || item.status === 'ready';
      return {
        writes: rewriteItem(item, open ? { ...fields, status: 'expired' } : fields, (k) => k),
        objects: [exportPrefix(item.id as string)],
        outcome: 'kept',
      };
    }
    default:
      throw new Error(`data rights: no special erasure for ${kind}`);
  }
}

/**
 * A notification to the person goes; one to somebody else that names them (as its actor, or by name
 * in its preview: a birthday, a wish) is sealed again without them: actor null, as the specification
 * answers for a deleted account, and "Former member" for their name.
 */
function notificationErasure(item: NotificationItem, s: Subject): ItemErasure | null {
  if (item.recipientId === s.userId) return { writes: [removeItem(item)], objects: [], outcome: 'deleted' };
  const content = notificationContent(item);
  const names = (text: string) => text.includes(s.userId) || (!!s.name && text.includes(s.name));
  const inClear = carries(fieldsOf(item), { userId: s.userId, email: s.email });
  if (!content || (content.actorId !== s.userId && !names(content.preview) && !inClear)) return null;
  const cleaned = {
    ...content,
    actorId: content.actorId === s.userId ? null : content.actorId,
    preview: (s.name ? content.preview.split(s.name).join(FORMER_MEMBER) : content.preview)
      .split(s.userId)
      .join(s.pseudonym),
  };
  const fields = pseudonymised(item, s);
  return {
    writes: rewriteItem(item, { ...fields, sealed: sealedContent(item.recipientId, item.id, cleaned) }, (k) => k),
    objects: [],
    outcome: 'kept',
  };
}

/** An item's fields with the person's id, and their e-mail address (any case), replaced by the opaque id. */
function pseudonymised(item: Item, s: Subject): Item {
  const fields = replaceEverywhere(fieldsOf(item), s.userId, s.pseudonym);
  return s.email ? replaceEverywhere(fields, s.email, s.pseudonym, { ignoreCase: true }) : fields;
}

/** Another person's profile naming the erased one (their manager, their last editor): changed as a person. */
async function applyPersonChange(item: Item, s: Subject): Promise<void> {
  await changePerson(
    item.id as string,
    (u) => {
      const replaced = replaceEverywhere(u, s.userId, s.pseudonym);
      return { ...replaced, managerId: u.managerId === s.userId ? null : replaced.managerId };
    },
    { actorId: null },
  );
}

/** The subject of a running erasure, or null once it is done. */
const subjectOf = (e: PersonErasureItem): Subject | null =>
  e.userId && e.pseudonym
    ? { userId: e.userId, email: e.email ?? '', name: e.name ?? '', pseudonym: e.pseudonym }
    : null;

/**
 * One step of an erasure: a page of the table, or (the table done) the bucket, or (the change feed
 * settled) the change log's latest events and the end. Answers the job as recorded after the step, or
 * null when this run should leave it (another worker holds it, or the change feed has not settled yet:
 * the lease then runs out and a later run goes on).
 */
export async function erasureStep(
  job: PersonErasureItem,
  lease: string,
  { now = Date.now(), pageSize }: { now?: number; pageSize?: number } = {},
): Promise<PersonErasureItem | null> {
  const s = subjectOf(job);
  if (!s || job.status !== 'running') return job;
  const counts: Record<string, number> = {};
  const count = (key: string, n = 1) => {
    counts[key] = (counts[key] ?? 0) + n;
  };
  let walk = job.walk;
  if (!walk.tableDone) {
    const page = await scanPage(walk.cursor, pageSize);
    for (const item of page.items) {
      if (PersonErasure.is(item) && item.id === job.id) continue;
      await eraseOne(item, s, count);
    }
    walk = advanced(walk, page);
  } else if (!walk.objectsDone) {
    const profile = await User.get({ id: s.userId }, { consistent: true });
    if (profile) await eraseOne(profile, s, count, { ownProfile: true });
    // Every version of every avatar they had, in every key form (keyed tag, unkeyed tag, their id).
    for (const prefix of avatarObjectPrefixes(s.userId)) count('objects.deleted', await eraseObjects(prefix));
    walk = { ...walk, objectsDone: true };
    // Parked until then: its lease runs until the feed has settled, so no run takes it sooner.
    const liveAfter = new Date(now + env.dataRightsSettleSeconds * 1000).toISOString();
    const parked = await recordStep(job, lease, walk, counts, { liveAfter });
    if (parked) await writeHeld(PersonErasure, parked, { ...parked, leaseUntil: liveAfter }, parked.leaseUntil!);
    return null;
  } else {
    // The change log's events since the erasure began, once the feed has caught up with its writes.
    if (job.liveAfter && now < Date.parse(job.liveAfter)) return null;
    for (const item of await eventsSince(job.liveFrom)) await eraseOne(item, s, count);
    return finishErasure(job, lease, counts);
  }
  return recordStep(job, lease, walk, counts);
}

/** Erases one item (retrying when it changed since read), adding to the counts. */
async function eraseOne(
  first: Item,
  s: Subject,
  count: (key: string, n?: number) => void,
  opts: { ownProfile?: boolean } = {},
): Promise<void> {
  let item: Item | undefined = first;
  for (let attempt = 0; item && attempt < 4; attempt++) {
    const plan = await erasureOf(item, s, opts);
    if (!plan) return;
    try {
      if (plan.writes.length) await transact(plan.writes);
      for (const prefix of plan.objects) count('objects.deleted', await eraseObjects(prefix));
      await plan.after?.();
      count(`${item.entity}.${plan.outcome}`);
      return;
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
      item = await readAgain(item);
    }
  }
  if (item) throw new Error(`data rights: ${String(item.entity)} ${item.pk}/${item.sk} kept changing`);
}

const readAgain = (item: Item): Promise<Item | undefined> => getItem({ pk: item.pk, sk: item.sk }, true);

/** Records a step's progress and counts, if the lease is still ours. */
async function recordStep(
  job: PersonErasureItem,
  lease: string,
  walk: PersonErasureItem['walk'],
  counts: Record<string, number>,
  more: Partial<PersonErasureItem> = {},
): Promise<PersonErasureItem | null> {
  const next = { ...job, walk, counts: addCounts(job.counts, counts), leaseUntil: renewLease(lease), ...more };
  return writeHeld(PersonErasure, job, next, lease);
}

/** The erasure's end: the person's details leave the job, which stays as the audit record. */
async function finishErasure(
  job: PersonErasureItem,
  lease: string,
  counts: Record<string, number>,
): Promise<PersonErasureItem | null> {
  const done: PersonErasureItem = {
    ...job,
    counts: addCounts(job.counts, counts),
    liveAfter: undefined,
    liveFrom: undefined,
    userId: undefined,
    email: undefined,
    name: undefined,
    dateOfBirth: undefined,
    pseudonym: undefined,
    leaseUntil: undefined,
    status: 'done',
    finishedAt: new Date().toISOString(),
  };
  return writeHeld(PersonErasure, job, done, lease);
}

const addCounts = (a: Record<string, number>, b: Record<string, number>) => {
  const out = { ...a };
  for (const [k, n] of Object.entries(b)) out[k] = (out[k] ?? 0) + n;
  return out;
};

/**
 * The change log's items that may name the person since the erasure began: the events after its
 * position then (in that epoch, and in the current one if the service restarted meanwhile; an event's
 * own time is the change's, not the log's, so positions are what order them), and every replica's
 * inline copy of the newest.
 */
async function eventsSince(from: PersonErasureItem['liveFrom']): Promise<Item[]> {
  const head = await readHead(true);
  const start = from ?? { epoch: head.epoch, seq: 0 };
  const ranges = [eventRange(start.epoch, start.seq + 1)];
  if (head.epoch !== start.epoch) ranges.push(eventRange(head.epoch, 0));
  const events = (
    await Promise.all(ranges.map((range) => LiveEvent.queryAll({ key: {}, range, consistent: true })))
  ).flat();
  const replicas = await LiveReplica.getMany(
    Array.from({ length: LIVE_MAX_REPLICAS }, (_, replica) => ({ replica })),
    { consistent: true },
  );
  return [...events, ...replicas.filter((r) => r !== undefined)];
}
