import type { TransactItem } from '../db/table.ts';
import { forbidden, invalid } from '../errors.ts';
import { MustRead, type MustReadAckItem, type MustReadItem, MustReadReminder, type PostItem } from './entities.ts';
import type { Viewer } from './people.ts';

/**
 * Must-read announcements (docs/must-read.md), the parts the post's writers and readers need: what a
 * new post may ask for, the items it is created with, and what a reader sees of it. The routes'
 * work is in must-read.ts, the audience in must-read-audience.ts, the reminders in
 * must-read-reminders.ts.
 */

/** Without a dueAt, people who become active within this many days of posting join the audience. */
export const JOIN_WINDOW_DAYS = 30;
/** The reminder goes this long before dueAt (or halfway there when the announcement is younger). */
export const REMIND_BEFORE_MS = 24 * 60 * 60 * 1000;
/** A dueAt at most this far ahead. */
const MAX_DUE_MS = 366 * 24 * 60 * 60 * 1000;

export interface AcknowledgementInput {
  required: true;
  dueAt?: string | null;
}

/**
 * The acknowledgement a new post asks for: only a super admin's announcement may (403 for anybody
 * else, 400 for a post that is not an announcement or a dueAt not ahead, or more than a year ahead).
 */
export function acknowledgementOf(
  caller: Viewer,
  input: { isAnnouncement?: boolean; acknowledgement?: AcknowledgementInput | null },
  now: Date,
): PostItem['acknowledgement'] {
  const ack = input.acknowledgement;
  if (!ack) return undefined;
  if (caller.role !== 'super_admin') throw forbidden('Only a super admin can require acknowledgement.');
  if (!input.isAnnouncement) throw invalid(['acknowledgement: only an announcement can require acknowledgement']);
  let dueAt: string | null = null;
  if (ack.dueAt) {
    const due = Date.parse(ack.dueAt);
    if (!(due > now.getTime())) throw invalid(['acknowledgement.dueAt: must be in the future']);
    if (due - now.getTime() > MAX_DUE_MS) throw invalid(['acknowledgement.dueAt: must be within a year']);
    dueAt = new Date(due).toISOString();
  }
  return { required: true, dueAt };
}

/** When the reminder goes: a day before dueAt, or halfway between posting and dueAt when that is later. */
export function remindAtOf(createdAt: string, dueAt: string): string {
  const created = Date.parse(createdAt);
  const due = Date.parse(dueAt);
  return new Date(Math.max(due - REMIND_BEFORE_MS, created + Math.floor((due - created) / 2))).toISOString();
}

/** The items a must-read post is created with (in the post's transaction): its state and its reminder. */
export function mustReadWrites(post: PostItem): TransactItem[] {
  const ack = post.acknowledgement;
  if (!ack) return [];
  const joinUntil =
    ack.dueAt ?? new Date(Date.parse(post.createdAt) + JOIN_WINDOW_DAYS * 24 * 60 * 60 * 1000).toISOString();
  return [
    MustRead.create({
      postId: post.id,
      authorId: post.authorId,
      dueAt: ack.dueAt,
      joinUntil,
      cutoff: post.createdAt,
      cursor: null,
      step: 0,
      sent: 0,
      createdAt: post.createdAt,
      acknowledged: 0,
      pending: 0,
      ...(post.audience ? { targeted: true } : {}),
    }),
    ...(ack.dueAt
      ? [
          MustReadReminder.create({
            postId: post.id,
            dueAt: ack.dueAt,
            remindAt: remindAtOf(post.createdAt, ack.dueAt),
            cursor: null,
            step: 0,
            sent: 0,
            createdAt: post.createdAt,
          }),
        ]
      : []),
  ];
}

/** What a page of posts shows of their acknowledgement, for one reader: their parts, and the counts for super admins. */
export interface AcknowledgementContext {
  parts: Map<string, MustReadAckItem>;
  states: Map<string, MustReadItem>;
}

export interface AcknowledgementView {
  required: true;
  dueAt: string | null;
  acknowledgedAt: string | null;
  acknowledged?: number;
  pending?: number;
}

export function acknowledgementView(
  p: PostItem,
  viewer: Viewer,
  ctx: AcknowledgementContext,
): AcknowledgementView | undefined {
  if (!p.acknowledgement) return undefined;
  const part = ctx.parts.get(p.id);
  const state = ctx.states.get(p.id);
  return {
    required: true,
    dueAt: p.acknowledgement.dueAt,
    acknowledgedAt: part?.status === 'acknowledged' ? part.acknowledgedAt : null,
    ...(viewer.role === 'super_admin'
      ? { acknowledged: Math.max(0, state?.acknowledged ?? 0), pending: Math.max(0, state?.pending ?? 0) }
      : {}),
  };
}
