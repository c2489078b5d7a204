/**
 * The text conventions of posts and comments: bodies store mentions as `@[userId]` tokens
 * and carry plain `#hashtags`; the server derives `mentions` and `tags` from them.
 */
export const MAX_TAGS = 10;
/** Mentions resolved (and notified) per body: the first distinct ones in the body's order. */
export const MAX_MENTIONS = 20;
const MAX_TAG_LENGTH = 64;

const MENTION = /@\[([^\]\s]{1,100})\]/g;
// A hashtag starts the text or follows something that is not part of a word (so `C#` or `a#b` are not tags).
const HASHTAG = /(^|[^\p{L}\p{N}_&#])#([\p{L}\p{N}_]+)/gu;

/** The distinct user ids of `@[userId]` tokens, in order of first appearance (at most MAX_MENTIONS). */
export function mentionIds(text: string): string[] {
  const ids: string[] = [];
  for (const m of text.matchAll(MENTION)) {
    if (!ids.includes(m[1])) ids.push(m[1]);
    if (ids.length >= MAX_MENTIONS) break;
  }
  return ids;
}

/** Hashtags, lowercase and without `#`: the first MAX_TAGS distinct ones. */
export function hashtags(text: string): string[] {
  const tags: string[] = [];
  for (const m of text.replace(MENTION, ' ').matchAll(HASHTAG)) {
    const tag = m[2].toLowerCase();
    if (tag.length > MAX_TAG_LENGTH || tags.includes(tag)) continue;
    tags.push(tag);
    if (tags.length >= MAX_TAGS) break;
  }
  return tags;
}

/** A tag as given in a query (`?tag=`): without a leading `#`, lowercase. */
export const normaliseTag = (tag: string) => tag.replace(/^#/, '').toLowerCase();

/**
 * The body with every token replaced by the person's name (public views, previews). Tokens naming
 * nobody known (or a deactivated person) become plain text without the token syntax.
 */
export function renderMentions(text: string, names: Map<string, string>): string {
  return text.replace(MENTION, (_token, id: string) => names.get(id) ?? '');
}

/**
 * As renderMentions, also answering where each name landed in the text (a notification keeps these
 * spans, so that erasing one person replaces exactly their name there: NotificationContent.names).
 */
export function renderMentionSpans(
  text: string,
  names: Map<string, string>,
): { text: string; names: { id: string; at: number; length: number }[] } {
  const spans: { id: string; at: number; length: number }[] = [];
  let out = '';
  let last = 0;
  for (const m of text.matchAll(MENTION)) {
    out += text.slice(last, m.index);
    const name = names.get(m[1]) ?? '';
    if (name) spans.push({ id: m[1], at: out.length, length: name.length });
    out += name;
    last = m.index + m[0].length;
  }
  return { text: out + text.slice(last), names: spans };
}
