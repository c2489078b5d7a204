import { getMany, keyString } from '../db/table.ts';
import { notFound } from '../errors.ts';
import { Post, type PostItem } from '../feed/entities.ts';
import type { RecognitionCategory } from '../feed/model.ts';
import { mentionNames } from '../feed/people.ts';
import { mentionIds, renderMentions } from '../feed/text.ts';
import { uploadsFor } from '../feed/uploads.ts';
import { AVATARS_PREFIX, avatarPath, embedsUserId, legacyAvatarKeyPrefixes } from '../people/avatars.ts';
import { getUsers, type UserItem } from '../people/users.ts';
import { publicMediaUrl } from '../storage/public-urls.ts';
import { WebsiteEntry, type WebsiteEntryItem } from '../website/entities.ts';
import { isPublic } from '../website/status.ts';

/**
 * The public website's shapes. They name people only by name, title and image; content is plain
 * text with mentions rendered as names; media are signed URLs valid about a day (they work without a
 * session: CloudFront signed URLs when deployed, shared/storage/public-urls.ts); polls and documents are left out (the admin view lists them in `notShownPublicly`).
 */
const SIGNED_SECONDS = 24 * 3600;

export interface PublicPerson {
  name: string;
  title: string;
  image: string | null;
}

export interface OfficeUpdate {
  id: string;
  content: string;
  tags: string[];
  isAnnouncement: boolean;
  images: { url: string; thumbnailUrl: string | null; width: number | null; height: number | null }[];
  videos: { url: string; mimeType: string; posterUrl: string | null }[];
  recognition: { category: RecognitionCategory; message: string; recipient: PublicPerson } | null;
  author: PublicPerson;
  createdAt: string;
  publishedAt: string | null;
}

export interface WebsitePost extends OfficeUpdate {
  status: WebsiteEntryItem['status'];
  review: WebsiteEntryItem['review'];
  notShownPublicly: ('poll' | 'documents')[];
}

/**
 * An avatar path's object key (the path's last segment under the avatars prefix); none for keys of
 * the earlier forms, which embed the person's id or a tag anyone who knows it can compute (public
 * answers carry nothing that links back to an internal id; the migration moves them to the keyed form).
 */
function avatarObjectKey(userId: string, image: string): string | null {
  if (!image.startsWith(avatarPath(''))) return null;
  const key = image.slice(avatarPath('').length);
  return legacyAvatarKeyPrefixes(userId).some((p) => key.startsWith(p)) || embedsUserId(key)
    ? null
    : `${AVATARS_PREFIX}${key}`;
}

async function publicPerson(u: UserItem | undefined): Promise<PublicPerson> {
  if (!u) return { name: 'Former member', title: '', image: null };
  const key = u.image ? avatarObjectKey(u.id, u.image) : null;
  return { name: u.name, title: u.title ?? '', image: key ? await publicMediaUrl(key, SIGNED_SECONDS) : null };
}

/** Builds the public views of these posts: one batch read of people and one of upload records. */
async function build(posts: PostItem[]): Promise<Map<string, OfficeUpdate>> {
  const users = await getUsers(
    posts.flatMap((p) => [p.authorId, ...mentionIds(p.content), ...(p.recognition ? [p.recognition.recipientId] : [])]),
  );
  const uploads = await uploadsFor(posts.flatMap((p) => [...p.images, ...p.videos]));
  const out = new Map<string, OfficeUpdate>();
  for (const p of posts) {
    const images = await Promise.all(
      p.images.flatMap((path) => {
        const u = uploads.get(path);
        if (!u) return [];
        const large = u.renditions.w1200;
        const small = u.renditions.w400;
        return [
          (async () => ({
            url: await publicMediaUrl(large?.key ?? u.objectKey, SIGNED_SECONDS),
            thumbnailUrl: small ? await publicMediaUrl(small.key, SIGNED_SECONDS) : null,
            width: large?.width ?? u.width,
            height: large?.height ?? u.height,
          }))(),
        ];
      }),
    );
    const videos = await Promise.all(
      p.videos.flatMap((path) => {
        const u = uploads.get(path);
        return u
          ? [
              (async () => ({
                url: await publicMediaUrl(u.objectKey, SIGNED_SECONDS),
                mimeType: u.mimeType,
                posterUrl: null,
              }))(),
            ]
          : [];
      }),
    );
    const recipient = p.recognition ? users.get(p.recognition.recipientId) : undefined;
    out.set(p.id, {
      id: p.id,
      content: renderMentions(p.content, mentionNames(mentionIds(p.content), users)),
      tags: p.tags,
      isAnnouncement: p.isAnnouncement,
      images,
      videos,
      recognition: p.recognition
        ? { category: p.recognition.category, message: p.recognition.message, recipient: await publicPerson(recipient) }
        : null,
      author: await publicPerson(users.get(p.authorId)),
      createdAt: p.createdAt,
      publishedAt: null,
    });
  }
  return out;
}

const notShown = (p: PostItem): WebsitePost['notShownPublicly'] => [
  ...(p.poll ? (['poll'] as const) : []),
  ...(p.documents.length ? (['documents'] as const) : []),
];

/** Public views of entries (the public list): posts read in one batch; entries whose post is gone are skipped. */
export async function officeUpdates(entries: WebsiteEntryItem[], known: PostItem[] = []): Promise<OfficeUpdate[]> {
  const posts = await postsOf(entries, known);
  const views = await build([...posts.values()]);
  return entries.flatMap((e) => {
    const v = views.get(e.postId);
    return v ? [{ ...v, publishedAt: e.publishedAt }] : [];
  });
}

/** Admin views of entries. */
export async function websitePosts(entries: WebsiteEntryItem[], known: PostItem[] = []): Promise<WebsitePost[]> {
  const posts = await postsOf(entries, known);
  const views = await build([...posts.values()]);
  return entries.flatMap((e) => {
    const v = views.get(e.postId);
    const p = posts.get(e.postId);
    return v && p
      ? [{ ...v, publishedAt: e.publishedAt, status: e.status, review: e.review, notShownPublicly: notShown(p) }]
      : [];
  });
}

async function postsOf(entries: WebsiteEntryItem[], known: PostItem[] = []): Promise<Map<string, PostItem>> {
  const posts = new Map(known.map((p) => [p.id, p]));
  const missing = entries.filter((e) => !posts.has(e.postId));
  const found = await Post.getMany(missing.map((e) => ({ id: e.postId })));
  for (const p of found) if (p) posts.set(p.id, p);
  return posts;
}

/** One public office update: 404 alike when it is not approved, hidden, deleted or missing. */
export async function officeUpdate(postId: string): Promise<OfficeUpdate> {
  // One batch read of the post's partition: the record and the post, each told by its declaration.
  const found = await getMany([WebsiteEntry.key({ postId }), Post.key({ id: postId })]);
  const entry = found.get(keyString(WebsiteEntry.key({ postId })));
  const post = found.get(keyString(Post.key({ id: postId })));
  if (!WebsiteEntry.is(entry) || !Post.is(post) || post.hidden || !isPublic(entry))
    throw notFound('No such office update.');
  return (await officeUpdates([entry], [post]))[0];
}
