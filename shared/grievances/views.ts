import { type PersonView, personOf } from '../people/person-views.ts';
import { getUsers, type UserItem } from '../people/users.ts';

import { replyAuthorTags, sameTag, unseal } from './anonymity.ts';
import type { GrievanceItem, GrievanceReplyItem, GrievanceStatusChangeItem } from './entities.ts';
import { ANONYMOUS_NAME, openReplyContent, sealContexts, TEAM_NAME } from './model.ts';
import type { ReplyRole, Status } from './vocabulary.ts';

/** The grievance shapes as answered; admin routes add `author` and `changedBy`. */
export type Person = PersonView;
export interface Mention {
  id: string;
  name: string;
  image: string | null;
}

export function grievanceView(g: GrievanceItem, unread: boolean) {
  return {
    id: g.id,
    submitterName: ANONYMOUS_NAME,
    unread,
    subject: g.subject,
    description: g.description,
    category: g.category,
    anonymous: true,
    status: g.status,
    resolvedAt: g.resolvedAt ?? null,
    replyCount: Math.max(0, g.replyCount ?? 0),
    statusNote: g.statusNote ?? null,
    statusNoteAt: g.statusNoteAt ?? null,
    createdAt: g.createdAt,
    updatedAt: g.updatedAt,
  };
}

export interface ReplyView {
  id: string;
  grievanceId: string;
  authorName: string;
  authorRole: ReplyRole;
  body: string;
  mentions: Mention[];
  createdAt: string;
  editedAt: string | null;
  isMine: boolean;
}
/** Admin routes only. */
export interface AdminReplyView extends ReplyView {
  author: Person | null;
}
/** The reply shape of the route kind. */
export type ReplyViewOf<Admin extends boolean> = Admin extends true ? AdminReplyView : ReplyView;

export interface StatusChangeView {
  id: string;
  grievanceId: string;
  fromStatus: Status | null;
  toStatus: Status;
  reason: string;
  changedByName: string;
  createdAt: string;
}
export interface AdminStatusChangeView extends StatusChangeView {
  changedBy: Person | null;
}
export type StatusChangeViewOf<Admin extends boolean> = Admin extends true ? AdminStatusChangeView : StatusChangeView;

const personOrNull = (u: UserItem | undefined): PersonView | null => (u ? personOf(u) : null);
const handlerOf = (r: GrievanceReplyItem) =>
  r.handlerSeal ? unseal(r.handlerSeal, sealContexts.handlerReply(r.grievanceId, r.id)) : null;

/**
 * Replies as `callerId` sees them: `isMine` from the reply's tag, mentions resolved now (deactivated
 * people drop out), and on admin routes `author` for handler replies only. One batch read of people.
 */
export async function replyViews<Admin extends boolean>(
  items: GrievanceReplyItem[],
  callerId: string,
  { admin }: { admin: Admin },
): Promise<ReplyViewOf<Admin>[]> {
  const handlers = new Map(items.map((r) => [r.id, admin ? handlerOf(r) : null]));
  const contents = new Map(items.map((r) => [r.id, openReplyContent(r)]));
  const people = await getUsers([
    ...[...contents.values()].flatMap((c) => c.mentionIds),
    ...[...handlers.values()].filter((h): h is string => !!h),
  ]);
  return items.map((r) => {
    const content = contents.get(r.id)!;
    const mentions = content.mentionIds
      .map((id) => people.get(id))
      .filter((u): u is UserItem => !!u && u.status !== 'deactivated')
      .map((u) => ({ id: u.id, name: u.name, image: u.image ?? null }));
    const view: ReplyView = {
      id: r.id,
      grievanceId: r.grievanceId,
      authorName: ANONYMOUS_NAME,
      authorRole: r.authorRole,
      body: content.body,
      mentions,
      createdAt: r.createdAt,
      editedAt: r.editedAt ?? null,
      isMine: sameTag(r.authorTag, replyAuthorTags(callerId, r.grievanceId, r.id)),
    };
    if (!admin) return view as ReplyViewOf<Admin>;
    const handlerId = handlers.get(r.id);
    const author = r.authorRole === 'handler' && handlerId ? personOrNull(people.get(handlerId)) : null;
    return { ...view, author } as ReplyViewOf<Admin>;
  });
}

/** Status changes attributed to the grievance team; admin routes add `changedBy` (null on the raised entry). */
export async function statusChangeViews<Admin extends boolean>(
  items: GrievanceStatusChangeItem[],
  { admin }: { admin: Admin },
): Promise<StatusChangeViewOf<Admin>[]> {
  const changers = new Map(
    items.map((c) => [
      c.id,
      admin && c.changedBySeal ? unseal(c.changedBySeal, sealContexts.changedBy(c.grievanceId, c.id)) : null,
    ]),
  );
  const people = admin
    ? await getUsers([...changers.values()].filter((h): h is string => !!h))
    : new Map<string, UserItem>();
  return items.map((c) => {
    const changedById = changers.get(c.id);
    const view: StatusChangeView = {
      id: c.id,
      grievanceId: c.grievanceId,
      fromStatus: c.fromStatus ?? null,
      toStatus: c.toStatus,
      reason: c.reason,
      changedByName: TEAM_NAME,
      createdAt: c.createdAt,
    };
    if (!admin) return view as StatusChangeViewOf<Admin>;
    return {
      ...view,
      changedBy: changedById ? personOrNull(people.get(changedById)) : null,
    } as StatusChangeViewOf<Admin>;
  });
}
