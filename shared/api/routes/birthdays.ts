import * as calendar from '../../calendar/entities.ts';
import * as z from '../../util/zod.ts';
import { API_PREFIX, declared, defineRoute } from '../route-def.ts';
import { isoDateTime, Mention, nonBlank, nullableIso, personCardFields } from '../schemas/common.ts';
import { NOTIFIES } from '../writes.ts';

export const Birthday = /* @__PURE__ */ declared(() =>
  z.withMeta(
    z.object({
      ...personCardFields(),
      wished: z.boolean(),
      wishCount: z.number().check(z.int()),
    }),
    { id: 'Birthday' },
  ),
);

export const BirthdayWish = /* @__PURE__ */ declared(() =>
  z.withMeta(
    z.object({
      id: z.string(),
      author: Mention,
      message: z.string(),
      createdAt: isoDateTime(),
      loved: z.boolean(),
      reply: z.nullable(z.string()),
      repliedAt: nullableIso(),
    }),
    { id: 'BirthdayWish' },
  ),
);

const B = `${API_PREFIX}/birthdays`;

export const listTodaysBirthdaysRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'list-todays-birthdays',
    area: 'birthdays',
    method: 'GET',
    path: `${B}/today`,
    auth: 'session',
    summary:
      "Today's birthdays in the company's timezone. The first read of the day on somebody's birthday announces it to everyone: one birthday notification per person per day, naming the day's birthday people, updated (unread again) when another appears later that day.",
    status: 200,
    response: z.array(Birthday),
    access: { table: 'write', writes: [calendar.BirthdayAnnouncement, calendar.BirthdayDay, ...NOTIFIES] },
  }),
);

export const listMyBirthdayWishesRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'list-my-birthday-wishes',
    area: 'birthdays',
    method: 'GET',
    path: `${B}/me/wishes`,
    auth: 'session',
    summary: 'The wishes the caller received this year, newest first.',
    status: 200,
    response: z.array(BirthdayWish),
  }),
);

export const sendBirthdayWishRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'send-birthday-wish',
    area: 'birthdays',
    method: 'POST',
    path: `${B}/{userId}/wishes`,
    auth: 'session',
    summary:
      'Wishes somebody on their birthday (not yourself). One wish per person per birthday: a second rewords it; only the first notifies.',
    body: z.strictObject({ message: nonBlank(1, 500) }),
    idempotent: true,
    status: 204,
    errors: [400, 404],
    access: { table: 'write', writes: [calendar.BirthdayWish, calendar.WishCounter, ...NOTIFIES] },
  }),
);

export const loveBirthdayWishRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'love-birthday-wish',
    area: 'birthdays',
    method: 'PUT',
    path: `${B}/wishes/{wishId}/love`,
    auth: 'session',
    summary: 'Hearts (true) or un-hearts (false) a wish you received; the first heart notifies its writer.',
    body: z.strictObject({ loved: z.boolean() }),
    status: 204,
    errors: [400, 404],
    access: { table: 'write', writes: [calendar.BirthdayWish, ...NOTIFIES] },
  }),
);

export const replyBirthdayWishRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'reply-birthday-wish',
    area: 'birthdays',
    method: 'PUT',
    path: `${B}/wishes/{wishId}/reply`,
    auth: 'session',
    summary:
      'Replies to a wish you received (sending again rewords; empty clears); the first reply notifies its writer with its words.',
    body: z.strictObject({ message: z.string().check(z.maxLength(500, 'must be at most 500 characters')) }),
    status: 204,
    errors: [400, 404],
    access: { table: 'write', writes: [calendar.BirthdayWish, ...NOTIFIES] },
  }),
);

export const birthdayRoutes = [
  listTodaysBirthdaysRoute,
  listMyBirthdayWishesRoute,
  sendBirthdayWishRoute,
  loveBirthdayWishRoute,
  replyBirthdayWishRoute,
];
