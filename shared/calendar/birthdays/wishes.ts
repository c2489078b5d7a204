import { createHash } from 'node:crypto';
import { isConditionFailure, write } from '../../db/table.ts';
import { updateExpression, withCondition } from '../../db/update-expression.ts';
import { invalid, notFound } from '../../errors.ts';
import { transactNotifications } from '../../notifications/notify-many.ts';
import { celebratesOn } from '../../people/birthday-index.ts';
import { mentionIn } from '../../people/person-views.ts';
import { getUser, getUsers, type UserItem } from '../../people/users.ts';
import { companyDate } from '../../util/time.ts';
import { BirthdayWish, WishCounter, type WishItem } from '../entities.ts';

/**
 * Birthday wishes: one per author per birthday (its id is derived
 * from recipient, year and author, so the first one is a conditional put and a second one rewords
 * it, keeping its createdAt). Each first (first wish, first heart, first reply) notifies in the same
 * transaction that records it, so it notifies exactly once however the requests race.
 */
export const wishIdFor = (recipientId: string, year: string, authorId: string) =>
  createHash('sha256').update(`birthday-wish|${recipientId}|${year}|${authorId}`).digest('hex').slice(0, 32);

const yearOf = (today: string) => today.slice(0, 4);

export async function sendWish(
  author: UserItem,
  recipientId: string,
  message: string,
  now = new Date(),
): Promise<void> {
  if (recipientId === author.id) throw invalid('You cannot send a birthday wish to yourself.');
  const today = companyDate(now);
  const recipient = await getUser(recipientId);
  if (!recipient || recipient.status === 'deactivated') throw notFound('No such person.');
  if (!celebratesOn(recipient.dateOfBirth, today)) throw notFound('It is not their birthday today.');
  const year = yearOf(today);
  const id = wishIdFor(recipientId, year, author.id);
  const at = now.toISOString();
  const wish = {
    id,
    recipientId,
    authorId: author.id,
    year,
    message,
    createdAt: at,
    updatedAt: at,
    loved: false,
    reply: null,
    repliedAt: null,
    actorId: author.id,
  };
  try {
    await transactNotifications(
      [{ recipientId, kind: 'birthday_wish', actorId: author.id, preview: message }],
      [BirthdayWish.create(wish), WishCounter.add({ recipientId, year }, { wishCount: 1 })],
    );
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    // Already wished this birthday: the words are replaced, nothing else changes and nobody is told again.
    await write(
      BirthdayWish.update(
        { id },
        {
          UpdateExpression: 'SET message = :m, updatedAt = :at, actorId = :a',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':m': message, ':at': at, ':a': author.id },
        },
      ),
    );
  }
}

/** The caller's wishes of this year, newest first. */
export async function myWishes(userId: string, now = new Date()) {
  const wishes = await BirthdayWish.queryAll({
    index: 'received',
    key: { recipientId: userId, year: yearOf(companyDate(now)) },
    forward: false,
  });
  const authors = await getUsers(wishes.map((w) => w.authorId));
  return wishes.map((w) => ({
    id: w.id,
    author: mentionIn(authors, w.authorId),
    message: w.message,
    createdAt: w.createdAt,
    loved: !!w.loved,
    reply: w.reply ?? null,
    repliedAt: w.repliedAt ?? null,
  }));
}

/** A wish the caller received (404 for anybody else: the writer included). */
async function receivedWish(userId: string, wishId: string): Promise<WishItem> {
  const wish = await BirthdayWish.get({ id: wishId }, { consistent: true });
  if (!wish || wish.recipientId !== userId) throw notFound('No such wish of yours.');
  return wish;
}

/**
 * Applies a change to a wish; when `first` names a marker not yet set, the same transaction sets it and
 * records the notification to the writer, else the change is written alone.
 */
async function changeWish(
  wish: WishItem,
  actor: UserItem,
  set: Record<string, unknown>,
  first: { marker: 'firstLovedAt' | 'firstRepliedAt'; preview: string } | null,
  now: Date,
): Promise<void> {
  if (first) {
    const update = updateExpression({ ...set, actorId: actor.id, [first.marker]: now.toISOString() });
    try {
      await transactNotifications(
        [
          {
            recipientId: wish.authorId,
            kind: 'birthday_thanks',
            actorId: actor.id,
            preview: first.preview,
            // The template starts with the actor's name (NotificationContent.names).
            names: [{ id: actor.id, at: 0, length: actor.name.length }],
          },
        ],
        [
          BirthdayWish.update(
            wish,
            withCondition(update, `attribute_exists(pk) AND attribute_not_exists(${first.marker})`),
          ),
        ],
      );
      return;
    } catch (err) {
      if (!isConditionFailure(err)) throw err; // not the first after all: written below without a notification
    }
  }
  await write(
    BirthdayWish.update(wish, withCondition(updateExpression({ ...set, actorId: actor.id }), 'attribute_exists(pk)')),
  );
}

/** Hearts (or un-hearts) a wish; the first heart ever tells its writer (`birthday_thanks`). */
export async function loveWish(actor: UserItem, wishId: string, loved: boolean, now = new Date()): Promise<void> {
  const wish = await receivedWish(actor.id, wishId);
  const first =
    loved && !wish.firstLovedAt
      ? { marker: 'firstLovedAt' as const, preview: `${actor.name} loved your birthday wish.` }
      : null;
  await changeWish(wish, actor, { loved }, first, now);
}

/** Replies to a wish (empty clears the reply); the first reply ever tells its writer, with its words. */
export async function replyToWish(actor: UserItem, wishId: string, message: string, now = new Date()): Promise<void> {
  const wish = await receivedWish(actor.id, wishId);
  if (message.trim() === '') return changeWish(wish, actor, { reply: null, repliedAt: null }, null, now);
  const first = !wish.firstRepliedAt
    ? { marker: 'firstRepliedAt' as const, preview: `${actor.name} replied: ${message}` }
    : null;
  await changeWish(wish, actor, { reply: message, repliedAt: now.toISOString() }, first, now);
}

/** For today's list: which of these people the viewer already wished this year, and the viewer's own count. */
export async function wishState(viewerId: string, people: UserItem[], today: string) {
  const year = yearOf(today);
  const keys = people.filter((p) => p.id !== viewerId).map((p) => ({ id: wishIdFor(p.id, year, viewerId) }));
  const [wished, counter] = await Promise.all([
    BirthdayWish.getMany(keys),
    people.some((p) => p.id === viewerId)
      ? WishCounter.get({ recipientId: viewerId, year }, { consistent: true })
      : undefined,
  ]);
  const wishedIds = new Set(wished.flatMap((w) => (w ? [w.recipientId] : [])));
  return { wished: (personId: string) => wishedIds.has(personId), ownCount: counter?.wishCount ?? 0 };
}
