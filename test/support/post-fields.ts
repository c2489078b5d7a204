import type { EntityFields } from '../../shared/db/entity.ts';
import type { Post } from '../../shared/feed/entities.ts';
import { firstRevision, textOnly } from '../../shared/feed/posts.ts';

type PostFields = EntityFields<typeof Post>;

/**
 * A text-only post as the service first writes it (shared/feed/posts.ts), with `fields` over it: the
 * post tests and the benches write straight into the table.
 */
export function plainPost(
  fields: Pick<PostFields, 'id' | 'authorId' | 'content' | 'createdAt'> & Partial<PostFields>,
): PostFields {
  const first = firstRevision(fields.authorId, new Date(fields.createdAt), textOnly(fields.content), fields.id);
  return { ...first, ...fields };
}
