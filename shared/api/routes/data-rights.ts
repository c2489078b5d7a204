import { DataExport, DataExportClaim, PersonErasure } from '../../data-rights/entities.ts';
import { NotificationCounter } from '../../notifications/entities.ts';
import { User } from '../../people/entities.ts';
import * as z from '../../util/zod.ts';
import { API_PREFIX, declared, defineRoute } from '../route-def.ts';
import { DataExportView, ErasureView, LegalHold } from '../schemas/data-rights.ts';

/**
 * People's data rights (docs/people-data.md): a copy of a person's data and
 * their erasure after they left. The requests only record a job; the data-rights worker does the work
 * (shared/api/background.ts).
 */
const M = `${API_PREFIX}/admin/members`;
const EXPORT_BUCKET = [{ prefix: 'exports/', actions: ['read' as const] }];

export const exportMemberDataRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'export-member-data',
    area: 'members',
    method: 'POST',
    path: `${M}/{userId}/data-export`,
    auth: 'super_admin',
    audit: { action: 'member.data_export.create', target: { params: ['userId'], created: 'DataExport' } },
    summary:
      "Starts a copy of a person's data (deactivated people included), always a job of its own: the person is told (e-mail, and a notification if they can sign in) by the background worker. 409 once their erasure has begun.",
    status: 201,
    response: DataExportView,
    errors: [404, 409],
    access: { table: 'write', writes: [DataExport], bucket: EXPORT_BUCKET },
  }),
);

export const getMemberDataExportRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'get-member-data-export',
    area: 'members',
    method: 'GET',
    path: `${M}/{userId}/data-export/{exportId}`,
    auth: 'super_admin',
    summary: "An export's progress and, once ready, a short-lived signed link to its JSON document.",
    status: 200,
    response: DataExportView,
    errors: [404],
    access: { bucket: EXPORT_BUCKET },
  }),
);

export const exportMyDataRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'export-my-data',
    area: 'profiles',
    method: 'POST',
    path: `${API_PREFIX}/users/me/data-export`,
    auth: 'session',
    summary:
      "Starts a copy of the caller's own data, or answers their own one still running (or the day's ready one); a super admin's export of them is never answered here. 409 once their erasure has begun.",
    status: 201,
    response: DataExportView,
    errors: [409],
    access: { table: 'write', writes: [DataExport, DataExportClaim], bucket: EXPORT_BUCKET },
  }),
);

export const getMyDataExportRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'get-my-data-export',
    area: 'profiles',
    method: 'GET',
    path: `${API_PREFIX}/users/me/data-export/{exportId}`,
    auth: 'session',
    summary:
      "The caller's export (their own, or a super admin's export of them, of which they were told): progress and, once ready, a short-lived signed link to its JSON document.",
    status: 200,
    response: DataExportView,
    errors: [404],
    access: { bucket: EXPORT_BUCKET },
  }),
);

export const eraseMemberRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'erase-member',
    area: 'members',
    method: 'DELETE',
    path: `${M}/{userId}`,
    auth: 'super_admin',
    audit: { action: 'member.erase', target: { params: ['userId'], created: 'PersonErasure' } },
    summary:
      'Erases a deactivated person now (in the background): 409 unless deactivated or while under a legal hold. Answers the erasure; asking again answers the same one, re-queued if it had failed.',
    status: 200,
    response: ErasureView,
    errors: [404, 409],
    // The person's notification counter is closed with the mark (erasure-requests.ts).
    access: { table: 'write', writes: [PersonErasure, User, NotificationCounter] },
  }),
);

export const getErasureRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'get-erasure',
    area: 'members',
    method: 'GET',
    path: `${API_PREFIX}/admin/erasures/{erasureId}`,
    auth: 'super_admin',
    summary:
      'An erasure: its progress, its failed attempts (`failed` with the reason after the last), and once done its audit record (counts and times, no personal data).',
    status: 200,
    response: ErasureView,
    errors: [404],
  }),
);

export const setLegalHoldRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'set-member-legal-hold',
    area: 'members',
    method: 'PUT',
    path: `${M}/{userId}/legal-hold`,
    auth: 'super_admin',
    audit: { action: 'member.legal_hold.set', target: { params: ['userId'] } },
    summary: 'Sets or lifts a legal hold: while set, neither the retention nor a super admin can erase the person.',
    body: z.strictObject({ legalHold: z.boolean() }),
    status: 200,
    response: LegalHold,
    errors: [400, 404, 409],
    access: { table: 'write', writes: [User] },
  }),
);

export const dataRightsRoutes = [
  exportMemberDataRoute,
  getMemberDataExportRoute,
  exportMyDataRoute,
  getMyDataExportRoute,
  eraseMemberRoute,
  getErasureRoute,
  setLegalHoldRoute,
];
