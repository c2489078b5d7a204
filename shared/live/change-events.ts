/**
 * The contract between the areas and the change feed. The change-feed consumer (the
 * only reader of the table's DynamoDB stream) hands every item change to the mapper registered for
 * the item's `entity` attribute; the mapper answers the live-update events it means. Areas register
 * their mappers in `shared/registry/change-mappers.ts`; nothing else emits events, so no mutation can forget to.
 *
 * Conventions every area follows so mappers can work from the images alone:
 * - every item carries `entity` (its type name) and, when a person changed it, `actorId` (who did
 *   this change); a deletion that needs an actor is written as an update that stamps `actorId` and
 *   `deletedAt` first (or the mapper uses the last known actor);
 * - grievance items carry `anon: true` and never reach the consumer; grievance notifications look
 *   like every other notification and are told apart by their mapper after unsealing.
 */
export type Audience = { kind: 'all' } | { kind: 'user'; userId: string };

export interface ChangeEventDraft {
  type: string;
  actorId: string | null;
  payload: Record<string, unknown>;
  audience: Audience;
}

/** One item change, with images already unmarshalled into plain objects. */
export interface ItemChange {
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE';
  oldImage: Record<string, any> | undefined;
  newImage: Record<string, any> | undefined;
  at: Date;
}

export type ChangeMapper = (change: ItemChange) => ChangeEventDraft[];

export const everyone: Audience = { kind: 'all' };
export const onlyUser = (userId: string): Audience => ({ kind: 'user', userId });

/** Whether any of these attributes differs between the two images. */
export function changed(change: ItemChange, ...fields: string[]): boolean {
  return fields.some((f) => JSON.stringify(change.oldImage?.[f]) !== JSON.stringify(change.newImage?.[f]));
}

export const actorOf = (change: ItemChange): string | null =>
  (change.newImage?.actorId as string | undefined) ?? (change.oldImage?.actorId as string | undefined) ?? null;
