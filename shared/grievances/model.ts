import { seal, unseal } from './anonymity.ts';
import type { GrievanceReplyItem } from './entities.ts';

/** What every reader is shown instead of a name. */
export const ANONYMOUS_NAME = 'Anonymous';
export const TEAM_NAME = 'Grievance team';

/** Seal contexts: each seal opens only on the item it was made for. */
export const sealContexts = {
  raiser: (grievanceId: string) => `grievance-raiser:${grievanceId}`,
  handlerReply: (grievanceId: string, replyId: string) => `grievance-handler-reply:${grievanceId}:${replyId}`,
  replyContent: (grievanceId: string, replyId: string) => `grievance-reply-content:${grievanceId}:${replyId}`,
  changedBy: (grievanceId: string, changeId: string) => `grievance-status-change:${grievanceId}:${changeId}`,
  noticeRecipient: (grievanceId: string, noticeId: string) => `grievance-notice:${grievanceId}:${noticeId}`,
  notice: (noticeId: string) => `grievance-notice-payload:${noticeId}`,
  readerRef: (grievanceId: string, refId: string) => `grievance-reader-ref:${grievanceId}:${refId}`,
  notificationRef: (grievanceId: string, refId: string) => `grievance-notification-ref:${grievanceId}:${refId}`,
};

/** Ids are time-sortable ids (shared/db/ids.ts); anything else names nothing and is a 404 without a read. */
export const isEntityId = (id: string) => /^[0-9a-z]{22}$/.test(id);

/** What a reply says: its body as sent and the people it tags. */
export interface ReplyContent {
  body: string;
  mentionIds: string[];
}

export const sealReplyContent = (grievanceId: string, replyId: string, content: ReplyContent): string =>
  seal(JSON.stringify(content), sealContexts.replyContent(grievanceId, replyId));

/** The reply's content; a seal that does not open (another secret) reads as empty rather than failing the page. */
export function openReplyContent(r: Pick<GrievanceReplyItem, 'grievanceId' | 'id' | 'sealedContent'>): ReplyContent {
  const text = unseal(r.sealedContent, sealContexts.replyContent(r.grievanceId, r.id));
  return text ? (JSON.parse(text) as ReplyContent) : { body: '', mentionIds: [] };
}
