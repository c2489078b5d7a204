import { newSortableId } from '../db/ids.ts';
import { page } from '../db/paging.ts';
import { getMany, isConditionFailure, keyString, retryOnConflict, type TransactItem, transact } from '../db/table.ts';
import { conflict, forbidden, notFound } from '../errors.ts';
import { replyAuthorTag, replyAuthorTags, sameTag, seal } from './anonymity.ts';
import { Grievance, type GrievanceItem, GrievanceReply, type GrievanceReplyItem } from './entities.ts';
import { loadGrievance } from './grievances.ts';
import { applyHandling, configuredPeriods, hasHandling } from './handling.ts';
import { grievanceChangeWrite, handlingEntryWrites } from './handling-index.ts';
import { authoredText, resolveMentions } from './mentions.ts';
import { isEntityId, openReplyContent, sealContexts, sealReplyContent } from './model.ts';
import { mentionNotice, type NoticeRequest, raiserNotice, raiserOf, transactWithNotices } from './notices.ts';
import { isRaiser } from './read-state.ts';
import { statsWrites } from './stats-fields.ts';
import { type ReplyViewOf, replyViews } from './views.ts';

const MAX_ATTEMPTS = 10;

/**
 * Replies: anyone signed in may reply; the reply stores its role and a
 * tag of (author, grievance, reply) instead of the author, and its body without the author's own
 * `@[id]` tokens (mentions.ts); a handler reply also keeps the handler's
 * id sealed for `author` on admin routes. Replying moves `replyCount` only: never status, order or
 * `updatedAt`.
 */
export async function createReply<AsHandler extends boolean>(
  callerId: string,
  grievanceId: string,
  sentBody: string,
  { asHandler }: { asHandler: AsHandler },
): Promise<ReplyViewOf<AsHandler>> {
  const body = authoredText('body', sentBody, callerId);
  return retryOnConflict(
    async () => {
      const g = await loadGrievance(grievanceId);
      const mentionIds = await resolveMentions(body, callerId);
      const now = new Date();
      const id = newSortableId(now);
      const reply = GrievanceReply.item({
        id,
        grievanceId: g.id,
        authorRole: asHandler ? 'handler' : isRaiser(callerId, g) ? 'submitter' : 'employee',
        sealedContent: sealReplyContent(g.id, id, { body, mentionIds }),
        createdAt: now.toISOString(),
        editedAt: null,
        rev: 0,
        authorTag: replyAuthorTag(callerId, g.id, id),
        ...(asHandler ? { handlerSeal: seal(callerId, sealContexts.handlerReply(g.id, id)) } : {}),
      });
      await transactWithNotices(
        [GrievanceReply.create(reply), ...(asHandler ? handlerReplyWrites(g, now) : [replyCountWrite(g.id, 1)])],
        g.id,
        replyNotices(callerId, g, mentionIds),
        now,
      );
      return (await replyViews([reply], callerId, { admin: asHandler }))[0];
    },
    { attempts: MAX_ATTEMPTS, exhausted: () => conflict('The grievance kept changing meanwhile. Try again.') },
  );
}

/**
 * A handler's reply may meet a deadline (handling.ts): then the reply count moves in one update with the
 * handling record, conditioned on what was read (the reply count too: a reply committed meanwhile makes
 * this one re-read), with the statistics and index entries it moves.
 */
function handlerReplyWrites(g: GrievanceItem, now: Date): TransactItem[] {
  if (!hasHandling(g) || (g.ackAt && g.feedbackAt)) return [replyCountWrite(g.id, 1)];
  const handled = applyHandling(g, g, { kind: 'handler-reply' }, now, configuredPeriods());
  return [
    grievanceChangeWrite(
      g,
      { ...handled.item, replyCount: g.replyCount + 1 },
      {
        ConditionExpression: '#replies = :replies',
        ExpressionAttributeNames: { '#replies': 'replyCount' },
        ExpressionAttributeValues: { ':replies': g.replyCount },
      },
    ),
    ...statsWrites(handled.stats),
    ...handlingEntryWrites(g, handled.item),
  ];
}

/**
 * Who hears of a new reply: each tagged person once (kind mention); the raiser
 * (kind grievance) unless they wrote it or are tagged in it (one notification per reply).
 */
function replyNotices(authorId: string, g: GrievanceItem, mentionIds: string[]): NoticeRequest[] {
  const notices = mentionIds.map(mentionNotice);
  const raiserId = raiserOf(g);
  if (raiserId && raiserId !== authorId && !mentionIds.includes(raiserId)) notices.push(raiserNotice(raiserId));
  return notices;
}

function replyCountWrite(grievanceId: string, delta: 1 | -1): TransactItem {
  return Grievance.update(
    { id: grievanceId },
    {
      UpdateExpression: 'ADD replyCount :d',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':d': delta },
    },
  );
}

/** A reply's grievance and the reply, in one batch read: 404 when either is missing, 403 unless the caller wrote it. */
async function loadOwnReply(
  callerId: string,
  grievanceId: string,
  replyId: string,
): Promise<{ g: GrievanceItem; r: GrievanceReplyItem; tag: string }> {
  if (!isEntityId(grievanceId)) throw notFound('No such grievance.');
  if (!isEntityId(replyId)) throw notFound('No such reply.');
  const gKey = Grievance.key({ id: grievanceId });
  const rKey = GrievanceReply.key({ grievanceId, id: replyId });
  const found = await getMany([gKey, rKey], true);
  const g = found.get(keyString(gKey));
  const r = found.get(keyString(rKey));
  if (!Grievance.is(g)) throw notFound('No such grievance.');
  if (!GrievanceReply.is(r)) throw notFound('No such reply.');
  // Says nothing about who did write it. The tag as stored (made with whichever key of the ring)
  // is what the edit's condition names.
  if (!sameTag(r.authorTag, replyAuthorTags(callerId, grievanceId, replyId)))
    throw forbidden('Only the author of a reply can change it.');
  return { g, r, tag: r.authorTag };
}

/**
 * The author edits a reply: new body (without the author's own tokens, as on create), `editedAt`, mentions re-resolved; only the newly tagged are
 * notified. Conditioned on the edit counter read, so two concurrent edits never notify anybody twice.
 */
export async function editReply(callerId: string, grievanceId: string, replyId: string, sentBody: string) {
  const body = authoredText('body', sentBody, callerId);
  return retryOnConflict(
    async () => {
      const { g, r, tag } = await loadOwnReply(callerId, grievanceId, replyId);
      const mentionIds = await resolveMentions(body, callerId);
      const before = openReplyContent(r).mentionIds;
      const newlyTagged = mentionIds.filter((id) => !before.includes(id));
      const now = new Date();
      const edited: GrievanceReplyItem = {
        ...r,
        sealedContent: sealReplyContent(grievanceId, replyId, { body, mentionIds }),
        editedAt: now.toISOString(),
        rev: (r.rev ?? 0) + 1,
      };
      await transactWithNotices(
        [
          GrievanceReply.update(r, {
            UpdateExpression: 'SET sealedContent = :content, editedAt = :at, rev = :rev',
            ConditionExpression: 'authorTag = :tag AND rev = :before',
            ExpressionAttributeValues: {
              ':content': edited.sealedContent,
              ':at': edited.editedAt,
              ':rev': edited.rev,
              ':tag': tag,
              ':before': r.rev ?? 0,
            },
          }),
        ],
        g.id,
        newlyTagged.map(mentionNotice),
        now,
      );
      return (await replyViews([edited], callerId, { admin: false }))[0];
    },
    { attempts: MAX_ATTEMPTS, exhausted: () => conflict('The reply kept changing meanwhile. Try again.') },
  );
}

/** The author deletes a reply for good; `replyCount` drops in the same transaction. */
export async function deleteReply(callerId: string, grievanceId: string, replyId: string): Promise<void> {
  const { tag } = await loadOwnReply(callerId, grievanceId, replyId);
  try {
    await transact([
      GrievanceReply.remove(
        { grievanceId, id: replyId },
        {
          ConditionExpression: 'authorTag = :tag',
          ExpressionAttributeValues: { ':tag': tag },
        },
      ),
      replyCountWrite(grievanceId, -1),
    ]);
  } catch (err) {
    if (isConditionFailure(err)) throw notFound('No such reply.'); // deleted meanwhile
    throw err;
  }
}

/** A page of replies, oldest first: one Query (and the grievance read alongside, for the 404). */
export async function listReplies<Admin extends boolean>(
  callerId: string,
  grievanceId: string,
  p: { cursor?: string; limit: number },
  { admin }: { admin: Admin },
): Promise<{ items: ReplyViewOf<Admin>[]; nextCursor: string | null }> {
  const [, replies] = await Promise.all([
    loadGrievance(grievanceId),
    isEntityId(grievanceId)
      ? GrievanceReply.query({ key: { grievanceId }, forward: true }, page(p))
      : Promise.resolve({ items: [], nextCursor: null }),
  ]);
  return { items: await replyViews(replies.items, callerId, { admin }), nextCursor: replies.nextCursor };
}
