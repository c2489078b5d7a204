import { type Rule, ruleWithout } from '../audiences/rule.ts';
import { env } from '../config/env.ts';
import { getItem, type Item, retryOnConflict, type TransactItem, transact, write } from '../db/table.ts';
import { DOCUMENTS_PREFIX } from '../documents/whole-list.ts';
import { scoreWrites } from '../feed/scores.ts';
import { PresentCounter } from '../hr/entities.ts';
import { LIVE_MAX_REPLICAS, LiveEvent, LiveReplica } from '../live/entities.ts';
import { eventRange, readHead } from '../live/event-log.ts';
import { type NameSpan, Notification, NotificationCounter, type NotificationItem } from '../notifications/entities.ts';
import { notificationContent, sealedContent } from '../notifications/notifications.ts';
import { avatarObjectPrefixes } from '../people/avatar-tag.ts';
import { changePerson } from '../people/change-person.ts';
import { Team, User } from '../people/entities.ts';
import { ROSTER, ROSTER_FIELDS } from '../people/roster-row.ts';
import { PushToken } from '../push/entities.ts';
import { forgetEndpointOf } from '../push/tokens.ts';
import { unlink } from '../scim/links.ts';
import { eraseObjects, eraseOldVersionsPage } from '../storage/erase-objects.ts';
import { participationTags } from '../surveys/anonymity.ts';
import { SurveyParticipation } from '../surveys/entities.ts';
import { dropFromDocuments } from '../whole-lists/erasure.ts';
import { PersonErasure, type PersonErasureItem } from './entities.ts';
import { exportPrefix } from './export-document.ts';
import { renewLease, writeHeld } from './lease.ts';
import { carriesPerson, replaceInKeyValue, replacePerson } from './person-match.ts';
import { fieldsOf, removeAttributes, removeItem, rewriteItem } from './rewrite.ts';
import { kindsOf, ruleOf } from './rules.ts';
import { carries, scanPage } from './table-walk.ts';
import { advanced, walkStart } from './walk-progress.ts';

/**
 * Erasure of a person who left (docs/people-data.md): the request (or the
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
    writes: rewriteItem(item, fields, (k) => replaceInKeyValue(k, s.userId, s.pseudonym)),
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
    case 'NotificationCounter':
      // Kept, closed (no notification to them is recorded), until the erasure ends (finishErasure).
      return null;
    case 'DirectoryShard':
    case 'DirectoryShardPosts': {
      // Their row or post count, named by their id (shared/people/derived-from-person.ts): `row_<id>`, `posts_<id>`.
      const named = Object.keys(item).filter((k) => /^[A-Za-z]+_/.test(k) && k.slice(k.indexOf('_') + 1) === s.userId);
      return { writes: [removeAttributes(item, named)], objects: [], outcome: 'kept' };
    }
    case 'Post': {
      // A targeted post whose rule names them (docs/audiences.md): their id leaves its `userIds`.
      const audience = item.audience as { rule?: Rule } | undefined;
      const rule = audience?.rule ? ruleWithout(audience.rule, s.userId) : undefined;
      if (item.authorId !== s.userId)
        return rule ? kept(pseudonymised({ ...item, audience: { ...audience, rule } }, s)) : kept();
      // Their uploads go (PostUpload below): the post keeps its text, attributed to nobody.
      return kept({ ...pseudonymised(item, s), images: [], videos: [], documents: [] });
    }
    case 'ScheduledPost':
      // Their own unpublished posts go; another's that names them (a recognition, a mention) is kept
      // under the opaque id (a recognition of nobody is then not published, scheduled-posts.ts).
      return item.authorId === s.userId ? deleted() : kept();
    case 'PollVote': {
      // Their vote is kept under the opaque id, without the name and picture it was cast under.
      if (item.userId !== s.userId) return kept();
      const { name: _name, image: _image, ...rest } = pseudonymised(item, s);
      return kept(rest);
    }
    case 'PostUpload': {
      if (item.ownerId !== s.userId) return kept();
      return deleted([], [`posts/${item.id}/`, `pending-uploads/posts/${item.id}/`]);
    }
    case 'ScimUser':
    case 'ScimUserSlot':
    case 'ScimExternalId':
      // Their link ends as a SCIM DELETE ends it: the last link moves into its position (links.ts).
      return { writes: [], objects: [], outcome: 'deleted', after: () => unlink(s.userId).then(() => undefined) };
    case 'PushToken': {
      // The platform endpoint (deployed: an SNS endpoint holding the device's token) goes with it.
      if (!PushToken.is(item)) return deleted();
      const registration = item;
      return { ...deleted(), after: () => forgetEndpointOf(registration) };
    }
    case 'FeedScore':
    case 'FeedScoreDay': {
      if (item.userId !== s.userId) return kept();
      // Their score moves to the opaque id by ADD: reactions to their posts already rewritten may have
      // started the opaque id's own score meanwhile, which a move by put would find taken.
      const t = {
        reactions: num(item.reactions),
        comments: num(item.comments),
        shares: num(item.shares),
        posts: num(item.posts),
      };
      const at = kind === 'FeedScoreDay' ? `${String(item.day)}T12:00:00.000Z` : new Date().toISOString();
      const merged = scoreWrites([{ userId: s.pseudonym, at, ...t }], s.pseudonym).filter((w) =>
        kind === 'FeedScore' ? keyOfWrite(w).endsWith('|FEED_SCORE') : keyOfWrite(w).startsWith('FEED_SCORES#'),
      );
      return deleted(merged);
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
    case 'DocumentChange': {
      // A whole list's row not folded yet (shared/documents/whole-list.ts). Theirs (keyed by their id:
      // their roster row, their attendance that day) goes; another person's change stays theirs, with
      // the erased person taken out as that person's profile is (a manager named by id becomes none),
      // so nobody else's unfolded change is lost.
      if (item.key === s.userId) return deleted();
      if (item.doc !== ROSTER || !Array.isArray(item.row)) return kept();
      return {
        writes: rewriteItem(item, { ...fieldsOf(item), row: rosterRowWithout(item.row, s) }, (k) => k),
        objects: [],
        outcome: 'kept',
      };
    }
    case 'Audience': {
      // An audience naming them (docs/audiences.md): their id leaves its `userIds`; anything else naming
      // them (a manager rule, who created or changed it) gets the opaque id, which selects nobody.
      const rule = ruleWithout(item.rule as Rule, s.userId) ?? item.rule;
      return kept(pseudonymised({ ...item, rule }, s));
    }
    case 'SurveyMember': {
      // Their place in a run's audience goes, and with it their participation record (whether they
      // answered, and their sealed answer): the roll-ups keep counting the answer, naming nobody.
      if (item.userId !== s.userId) return kept();
      return deleted(
        participationTags(s.userId, item.surveyId as string, item.run as number).map((tag) =>
          SurveyParticipation.remove({ tag }),
        ),
      );
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
 * A notification to the person goes; one to somebody else that names them is sealed again without
 * them: actor null (as the specification answers for a deleted account), and "Former member" exactly
 * where the service put their name in its preview (its name spans, NotificationContent.names). Nothing
 * else of the preview changes: it quotes somebody's words, which may contain the same letters.
 */
function notificationErasure(item: NotificationItem, s: Subject): ItemErasure | null {
  if (item.recipientId === s.userId) return { writes: [removeItem(item)], objects: [], outcome: 'deleted' };
  const content = notificationContent(item);
  const needles = { userId: s.userId, email: s.email };
  const inClear = carriesPerson(fieldsOf(item), needles, kindsOf(Notification.name));
  if (!content)
    return inClear
      ? { writes: rewriteItem(item, pseudonymised(item, s), (k) => k), objects: [], outcome: 'kept' }
      : null;
  const spans = namesIn(content, s);
  const token = carriesPerson(content.preview, needles, { text: [''] });
  if (content.actorId !== s.userId && !spans.some((n) => n.id === s.userId) && !token && !inClear) return null;
  const renamed = withoutName(content.preview, spans, s.userId);
  const cleaned = {
    ...content,
    actorId: content.actorId === s.userId ? null : content.actorId,
    preview: replacePerson(renamed.preview, { needles, to: s.pseudonym }, { text: [''] }),
    ...(renamed.names.length ? { names: renamed.names } : {}),
  };
  if (!renamed.names.length) delete cleaned.names;
  const fields = pseudonymised(item, s);
  return {
    writes: rewriteItem(item, { ...fields, sealed: sealedContent(item.recipientId, item.id, cleaned) }, (k) => k),
    objects: [],
    outcome: 'kept',
  };
}

/**
 * Where a notification's preview names people: its recorded spans; for content written before spans
 * were recorded, the actor's name where the template put it (a birthday, a heart or reply to a wish),
 * when the preview reads exactly so. A name in any other place of an older preview is not matched.
 */
function namesIn(
  content: { kind: string; actorId: string | null; preview: string; names?: NameSpan[] },
  s: Subject,
): NameSpan[] {
  if (content.names) return content.names;
  if (content.actorId !== s.userId || !s.name) return [];
  const p = content.preview;
  const at =
    content.kind === 'birthday' && p.startsWith(`It's ${s.name}'s birthday today.`)
      ? "It's ".length
      : content.kind === 'birthday_thanks' &&
          (p.startsWith(`${s.name} loved your birthday wish.`) || p.startsWith(`${s.name} replied: `))
        ? 0
        : -1;
  return at < 0 ? [] : [{ id: s.userId, at, length: s.name.length }];
}

/** The preview with the person's name spans replaced by FORMER_MEMBER, the other spans moved along. */
function withoutName(preview: string, spans: NameSpan[], userId: string): { preview: string; names: NameSpan[] } {
  let out = '';
  let last = 0;
  const names: NameSpan[] = [];
  for (const n of [...spans].sort((a, b) => a.at - b.at)) {
    if (n.at < last || n.at + n.length > preview.length) continue; // overlapping or out of range: not ours to move
    out += preview.slice(last, n.at);
    if (n.id === userId) out += FORMER_MEMBER;
    else {
      names.push({ ...n, at: out.length });
      out += preview.slice(n.at, n.at + n.length);
    }
    last = n.at + n.length;
  }
  return { preview: out + preview.slice(last), names };
}

/** An item's fields with the person's id, and their e-mail address, replaced by the opaque id, exactly (person-match.ts). */
function pseudonymised(item: Item, s: Subject): Item {
  return replacePerson(
    fieldsOf(item),
    { needles: { userId: s.userId, email: s.email }, to: s.pseudonym },
    kindsOf(String(item.entity)),
  );
}

/** A roster row of somebody else with the person taken out as their profile is (applyPersonChange). */
function rosterRowWithout(row: unknown[], s: Subject): unknown[] {
  const fields = Object.fromEntries(ROSTER_FIELDS.map((f, i) => [f, row[i]]));
  const replaced = replacePerson(
    fields,
    { needles: { userId: s.userId, email: s.email }, to: s.pseudonym },
    kindsOf(User.name),
  );
  if (fields.managerId === s.userId) replaced.managerId = null;
  // The company's values (audiences): a manager named by id becomes none there too.
  if (Array.isArray(fields.company) && fields.company[2] === s.userId)
    replaced.company = (replaced.company as unknown[]).map((v, i) => (i === 2 ? null : v));
  // A row of an earlier form (shorter) keeps its length.
  return ROSTER_FIELDS.slice(0, row.length).map((f) => replaced[f]);
}

/** Another person's profile naming the erased one (their manager, their last editor): changed as a person. */
async function applyPersonChange(item: Item, s: Subject): Promise<void> {
  await changePerson(
    item.id as string,
    (u) => {
      const replaced = replacePerson(
        u,
        { needles: { userId: s.userId, email: s.email }, to: s.pseudonym },
        kindsOf(User.name),
      );
      return {
        ...replaced,
        managerId: u.managerId === s.userId ? null : replaced.managerId,
        // The company's values (audiences, company-values.ts): the manager becomes none there too.
        ...(u.company
          ? { company: { ...u.company, managerId: u.company.managerId === s.userId ? null : u.company.managerId } }
          : {}),
      };
    },
    { actorId: null },
  );
}

const num = (v: unknown) => (typeof v === 'number' ? v : Number(v ?? 0) || 0);
/** `<pk>|<sk>` of a transaction write. */
const keyOfWrite = (w: TransactItem) => {
  const body = Object.values(w)[0] as { Key?: { pk?: string; sk?: string } };
  return `${body.Key?.pk}|${body.Key?.sk}`;
};

/** The subject of a running erasure, or null once it is done. */
const subjectOf = (e: PersonErasureItem): Subject | null =>
  e.userId && e.pseudonym
    ? { userId: e.userId, email: e.email ?? '', name: e.name ?? '', pseudonym: e.pseudonym }
    : null;

/**
 * One step of an erasure: a page of the table, or (the table done) the bucket, or (the change feed
 * settled) a page of the second walk, or (that done and the feed settled again) the change log's latest
 * events and the end. Answers the job as recorded after the step, or null when this run should leave
 * it (another worker holds it, or the change feed has not settled yet: the lease then runs out and a
 * later run goes on).
 *
 * The door (issue 33): from the erasure's start no write creates or changes an item about the person
 * (their profile's `erasureId` refuses reactivation, a password set and their export; their closed
 * notification counter drops every notification to them; mentions and follows resolve only people
 * not deactivated). What a write that had read before the start still lands is found by the second
 * walk of the whole table, which starts no sooner than DATA_RIGHTS_SETTLE_SECONDS after the first walk
 * and the profile's deletion (far longer than any request runs), and the change log's pass after it
 * catches the events the change feed writes meanwhile. So the last pass covers what was written while
 * the erasure ran, not only the change log.
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
    return park(job, lease, walk, counts, now);
  } else if (!job.again?.tableDone) {
    // The second walk, once the writes that began before the door closed have all landed.
    if (job.liveAfter && now < Date.parse(job.liveAfter)) return null;
    const again = job.again ?? walkStart();
    const page = await scanPage(again.cursor, pageSize);
    for (const item of page.items) {
      if (PersonErasure.is(item) && item.id === job.id) continue;
      await eraseOne(item, s, count, { again: true });
    }
    const next = advanced(again, page);
    if (next.tableDone) return park(job, lease, walk, counts, now, { again: next });
    return recordStep(job, lease, walk, counts, { again: next, liveAfter: undefined });
  } else if (!job.documents?.done) {
    // The whole lists' documents, once both walks are done: no current one holds them any more, then
    // no earlier version either (a page of versions a step).
    if (job.liveAfter && now < Date.parse(job.liveAfter)) return null;
    if (!job.documents?.folded) {
      const folded = await dropFromDocuments({ userId: s.userId, email: s.email });
      if (!folded) return null;
      count('documents.folded', folded.length);
      return recordStep(job, lease, walk, counts, { documents: { folded: true } });
    }
    const page = await eraseOldVersionsPage(DOCUMENTS_PREFIX, job.documents.next);
    count('objects.deleted', page.erased);
    return recordStep(job, lease, walk, counts, {
      documents: page.next ? { folded: true, next: page.next } : { folded: true, done: true },
    });
  } else {
    // The change log's events since the erasure began, once the feed has caught up with its writes.
    if (job.liveAfter && now < Date.parse(job.liveAfter)) return null;
    for (const item of await eventsSince(job.liveFrom)) await eraseOne(item, s, count);
    // Their notification counter, closed since the start, goes last.
    await write(NotificationCounter.remove({ userId: s.userId }));
    return finishErasure(job, lease, counts);
  }
  return recordStep(job, lease, walk, counts);
}

/** Records the step and parks the job until the change feed has settled (its lease runs until then). */
async function park(
  job: PersonErasureItem,
  lease: string,
  walk: PersonErasureItem['walk'],
  counts: Record<string, number>,
  now: number,
  more: Partial<PersonErasureItem> = {},
): Promise<null> {
  const liveAfter = new Date(now + env.dataRightsSettleSeconds * 1000).toISOString();
  const parked = await recordStep(job, lease, walk, counts, { liveAfter, ...more });
  if (parked) await writeHeld(PersonErasure, parked, { ...parked, leaseUntil: liveAfter }, parked.leaseUntil!);
  return null;
}

/** Attempts at one item that keeps changing under the erasure (others keep reacting and commenting). */
const ITEM_ATTEMPTS = 12;

/** Erases one item (retrying when it changed since read), adding to the counts. */
async function eraseOne(
  first: Item,
  s: Subject,
  count: (key: string, n?: number) => void,
  opts: { ownProfile?: boolean; again?: boolean } = {},
): Promise<void> {
  let item: Item | undefined = first;
  await retryOnConflict(
    async (attempt) => {
      if (attempt > 1) item = await readAgain(item as Item);
      if (!item) return;
      const plan = await erasureOf(item, s, opts);
      if (!plan) return;
      if (plan.writes.length) await transact(plan.writes);
      for (const prefix of plan.objects) count('objects.deleted', await eraseObjects(prefix));
      await plan.after?.();
      // An unknown kind the first walk counted as left is not counted again by the second.
      if (!(opts.again && plan.outcome === 'left')) count(`${item.entity}.${plan.outcome}`);
    },
    {
      attempts: ITEM_ATTEMPTS,
      exhausted: () => new Error(`data rights: ${String(item?.entity)} ${item?.pk}/${item?.sk} kept changing`),
    },
  );
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
    again: undefined,
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
