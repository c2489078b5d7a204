import * as z from 'zod';
import * as calendar from '../../calendar/entities.ts';
import { offsetDateTime } from '../../util/time.ts';
import { limitParam } from '../query.ts';
import { API_PREFIX, declared, defineRoute } from '../route-def.ts';
import { isoDateTime, Mention, nonBlank } from '../schemas/common.ts';

export const CompanyEvent = /* @__PURE__ */ declared(() =>
  z
    .object({
      id: z.string(),
      title: z.string(),
      startsAt: isoDateTime(),
      endsAt: isoDateTime().nullable(),
      location: z.string(),
      createdBy: Mention,
      canManage: z.boolean(),
    })
    .meta({ id: 'CompanyEvent' }),
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
      endsAt: offsetDateTime().nullable().optional(),
      location: z.string().max(120, 'must be at most 120 characters').optional(),
    }),
    idempotent: true,
    status: 201,
    response: CompanyEvent,
    errors: [400],
    access: { table: 'write', writes: [calendar.CompanyEvent] },
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
    body: z.strictObject({ startsAt: offsetDateTime(), endsAt: offsetDateTime().nullable().optional() }),
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
