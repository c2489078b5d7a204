import type * as z from '../util/zod.ts';

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
 *
 * Every change type is declared once, next to its mapper, with `changeType` (its name, audience,
 * one-line description and payload schema); a mapper builds its events only through those
 * declarations (`postCreated.event(actorId, { postId, ... })`), so TypeScript refuses a type or a
 * payload nobody declared. The registry (`shared/registry/change-types.ts`) collects the
 * declarations, and the AsyncAPI document of the stream is made from them (docs/asyncapi.md).
 */
/** `readers`: the people who may read one targeted thing, `of` = `post:<id>` or `event:<id>` (docs/audiences.md). */
export type Audience = { kind: 'all' } | { kind: 'user'; userId: string } | { kind: 'readers'; of: string };

/** An event on its way to the log (what the event log appends). */
export interface ChangeEventDraft {
  type: string;
  actorId: string | null;
  payload: Record<string, unknown>;
  audience: Audience;
}

declare const declared: unique symbol;
/** An event made by a change type's declaration: the only thing a mapper may answer. */
export type DeclaredChange = ChangeEventDraft & { readonly [declared]: true };

/**
 * Who receives a change type: everyone signed in, only the one person it concerns, or (`readers`) the
 * people who may read the post or event it is about: everyone for one without an audience, else its
 * audience, author and super admins (docs/audiences.md), checked by the stream for each connection.
 */
export type AudienceKind = 'everyone' | 'user' | 'readers';

/** One change type of the live stream, declared once beside its mapper (see `changeType`). */
export interface ChangeType<
  N extends string = string,
  A extends AudienceKind = AudienceKind,
  P extends z.ZodMiniType = z.ZodMiniType,
> {
  readonly name: N;
  readonly audience: A;
  /** One line, for client developers (the AsyncAPI document's message summary). */
  readonly description: string;
  readonly payload: P;
  /**
   * An event of this type: to everyone, or (audience `user`) to `userId` only, or (audience `readers`)
   * to `to`: everyone when absent, a targeted post's or event's readers (`postReaders`, `eventReaders`),
   * or one person.
   */
  readonly event: A extends 'user'
    ? (actorId: string | null, payload: z.output<P>, userId: string) => DeclaredChange
    : A extends 'readers'
      ? (actorId: string | null, payload: z.output<P>, to?: Audience) => DeclaredChange
      : (actorId: string | null, payload: z.output<P>) => DeclaredChange;
}

/**
 * Declares a change type: `changeType('post.deleted', 'everyone', 'A post was deleted.', z.object({ ... }))`.
 * Export it from the area's `change-events.ts` and add it to the area's list of declarations.
 */
export function changeType<N extends string, A extends AudienceKind, P extends z.ZodMiniType>(
  name: N,
  audience: A,
  description: string,
  payload: P,
): ChangeType<N, A, P> {
  const event = (actorId: string | null, body: z.output<P>, to?: string | Audience): DeclaredChange => {
    const draft: ChangeEventDraft = {
      type: name,
      actorId,
      payload: body as Record<string, unknown>,
      audience:
        audience === 'user' ? onlyUser(to as string) : audience === 'readers' && typeof to === 'object' ? to : everyone,
    };
    return draft as DeclaredChange;
  };
  return { name, audience, description, payload, event: event as ChangeType<N, A, P>['event'] };
}

/** Whether a value is a change type's declaration (the registry's tests find them among a module's exports). */
export const isChangeType = (value: unknown): value is ChangeType =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as ChangeType).name === 'string' &&
  typeof (value as ChangeType).event === 'function' &&
  ['everyone', 'user', 'readers'].includes((value as ChangeType).audience);

/** One item change, with images already unmarshalled into plain objects. */
export interface ItemChange {
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE';
  oldImage: Record<string, any> | undefined;
  newImage: Record<string, any> | undefined;
  at: Date;
}

/** An entity's mapper: the events one item change means, made by change types' declarations only. */
export type ChangeMapper = (change: ItemChange) => DeclaredChange[];

export const everyone: Audience = { kind: 'all' };
export const onlyUser = (userId: string): Audience => ({ kind: 'user', userId });
/** The readers of a targeted post (docs/audiences.md): the stream asks, per connection, whether its person may read it. */
export const postReaders = (postId: string): Audience => ({ kind: 'readers', of: `post:${postId}` });
/** The people who may see a targeted company event (docs/audiences.md), asked the same way. */
export const eventReaders = (eventId: string): Audience => ({ kind: 'readers', of: `event:${eventId}` });

/** Whether any of these attributes differs between the two images. */
export function changed(change: ItemChange, ...fields: string[]): boolean {
  return fields.some((f) => JSON.stringify(change.oldImage?.[f]) !== JSON.stringify(change.newImage?.[f]));
}

export const actorOf = (change: ItemChange): string | null =>
  (change.newImage?.actorId as string | undefined) ?? (change.oldImage?.actorId as string | undefined) ?? null;
