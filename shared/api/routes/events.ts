import * as calendar from '../../calendar/entities.ts';
import { offsetDateTime } from '../../util/time.ts';
import * as z from '../../util/zod.ts';
import { limitParam } from '../query.ts';
import { API_PREFIX, declared, defineRoute } from '../route-def.ts';
import { isoDateTime, Mention, nonBlank } from '../schemas/common.ts';
import { audienceChoice } from './audiences.ts';

export const CompanyEvent = /* @__PURE__ */ declared(() =>
  z.withMeta(
    z.object({
      id: z.string(),
      title: z.string(),
      startsAt: isoDateTime(),
      endsAt: z.nullable(isoDateTime()),
      location: z.string(),
      createdBy: Mention,
      canManage: z.boolean(),
      audience: z.described(
        z.optional(
          z.object({
            id: z.optional(z.string()),
            rule: z.described(z.optional(z.unknown()), 'An AudienceRule, as given'),
            dynamic: z.optional(z.boolean()),
          }),
        ),
        'Present only on a targeted event, shown to whom may manage it: who it is for (docs/audiences.md)',
      ),
    }),
    { id: 'CompanyEvent' },
  ),
);

const E = `${API_PREFIX}/events`;

export const listEventsRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'list-events',
    area: 'events',
    method: 'GET',
    path: E,
    auth: 'session',
    summary:
      'Upcoming and ongoing company events, soonest first (past events left out); a plain array capped by limit.',
    query: z.strictObject({ limit: limitParam() }),
    status: 200,
    response: z.array(CompanyEvent),
  }),
);

export const createEventRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'create-event',
    area: 'events',
    method: 'POST',
    path: E,
    auth: 'session',
    summary: 'Creates a company event (anyone signed in). Times keep the offset they are given in.',
    body: z.strictObject({
      title: nonBlank(1, 120),
      startsAt: offsetDateTime(),
      endsAt: z.optional(z.nullable(offsetDateTime())),
      location: z.optional(z.string().check(z.maxLength(120, 'must be at most 120 characters'))),
      audience: audienceChoice(
        'true: people who join the audience later see it too',
        'Who the event is for (exactly one of id and rule): listed only for them, its creator and super admins; absent, the whole company (docs/audiences.md). A member may target only an audience they are in, or people all under them.',
      ),
    }),
    idempotent: true,
    status: 201,
    response: CompanyEvent,
    // 403: an audience a member may not target (docs/audiences.md).
    errors: [400, 403],
    access: {
      table: 'write',
      writes: [calendar.CompanyEvent, calendar.EventAudience, calendar.EventReader],
      // A targeted event's audience is checked over the roster document.
      bucket: [{ prefix: 'documents/', actions: ['read'] }],
    },
  }),
);

export const updateEventRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'update-event',
    area: 'events',
    method: 'PATCH',
    path: `${E}/{eventId}`,
    auth: 'session',
    summary: 'Moves an event: only the time may change (endsAt omitted keeps it, null clears it). Needs canManage.',
    body: z.strictObject({ startsAt: offsetDateTime(), endsAt: z.optional(z.nullable(offsetDateTime())) }),
    status: 200,
    response: CompanyEvent,
    errors: [400, 403, 404],
    access: { table: 'write', writes: [calendar.CompanyEvent] },
  }),
);

export const deleteEventRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'delete-event',
    area: 'events',
    method: 'DELETE',
    path: `${E}/{eventId}`,
    auth: 'session',
    summary: 'Deletes an event: its creator, or any super admin.',
    status: 204,
    errors: [403, 404],
    access: { table: 'write', writes: [calendar.CompanyEvent] },
  }),
);

export const eventRoutes = [listEventsRoute, createEventRoute, updateEventRoute, deleteEventRoute];
