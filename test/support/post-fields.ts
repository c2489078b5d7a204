import type { EntityFields } from '../../shared/db/entity.ts';
import type { Post } from '../../shared/feed/entities.ts';

type PostFields = EntityFields<typeof Post>;

/**
 * A plain post's stored fields — text only, no media, poll or recognition, never edited — with `fields`
 * over them: the post tests and the benches write straight into the table.
 */
export function plainPost(
  fields: Pick<PostFields, 'id' | 'authorId' | 'content' | 'createdAt'> & Partial<PostFields>,
): PostFields {
  return {
    tags: [],
    images: [],
    videos: [],
    documents: [],
    poll: null,
    recognition: null,
    isAnnouncement: false,
    hidden: false,
    sharedPostId: null,
    mentionedIds: [],
    updatedAt: fields.createdAt,
    editedAt: null,
    actorId: fields.authorId,
    rev: 0,
    ...fields,
  };
}
