import {
  Survey as SurveyEntity,
  SurveyOwner,
  SurveyParticipation,
  SurveyRollup,
  SurveySettings,
  SurveyText,
} from '../../surveys/entities.ts';
import { LIMITS, QUESTION_KINDS, SLICE_DIMENSIONS, SURVEY_STATUSES, THRESHOLD } from '../../surveys/model.ts';
import * as z from '../../util/zod.ts';
import { pageQuery } from '../query.ts';
import { API_PREFIX, declared, defineRoute } from '../route-def.ts';
import { isoDateTime, nonBlank, nullableIso, page } from '../schemas/common.ts';
import { AudienceRule } from './audiences.ts';

/*
 * Pulse surveys (beyond the specification; docs/surveys.md). Admin routes: a super admin, or a person a
 * super admin named a survey owner (checked by the area on every request; `auth: 'session'`). Member
 * routes are `anonymous`, as the grievance channel's: the wrapper neither refreshes the session (a write
 * keyed by the caller, at the time of an answer) nor logs the caller's id.
 */
const A = `${API_PREFIX}/admin/surveys`;
const M = `${API_PREFIX}/surveys`;

const QuestionKind = /* @__PURE__ */ declared(() => z.enum(QUESTION_KINDS));

export const SurveyQuestion = /* @__PURE__ */ declared(() =>
  z.withMeta(
    z.object({ id: z.string(), kind: QuestionKind, text: z.string(), options: z.optional(z.array(z.string())) }),
    { id: 'SurveyQuestion' },
  ),
);

export const SurveyAudience = /* @__PURE__ */ declared(() =>
  z.withMeta(
    z.union([
      z.strictObject({ company: z.literal(true) }),
      z.strictObject({ teamId: z.string().check(z.minLength(1)).check(z.maxLength(200)) }),
      z.strictObject({ department: z.string().check(z.minLength(1)).check(z.maxLength(120)) }),
      z.strictObject({
        managerId: z.described(
          z.string().check(z.minLength(1)).check(z.maxLength(200)),
          'everybody below this manager, the whole chain',
        ),
      }),
      z.strictObject({
        id: z.described(
          z.string().check(z.minLength(1)).check(z.maxLength(200)),
          'a stored audience (docs/audiences.md)',
        ),
      }),
      z.strictObject({ rule: AudienceRule }),
    ]),
    {
      id: 'SurveyAudience',
      description:
        'Who a run asks, frozen when it opens: the company (the default), a team, a department, the people under a manager, or an audience (a stored one by id, or a rule).',
    },
  ),
);

const recurrence = () =>
  z.described(
    z.strictObject({ everyWeeks: z.number().check(z.int()).check(z.gte(1)).check(z.lte(LIMITS.everyWeeks)) }),
    'Each run opens this many weeks after the one before',
  );
const reminders = () =>
  z.described(
    z.strictObject({ everyDays: z.number().check(z.int()).check(z.gte(1)).check(z.lte(LIMITS.reminderDays)) }),
    'While a run is open, those who have not answered are reminded every this many days',
  );
const threshold = () =>
  z.described(
    z.number().check(z.int()).check(z.gte(THRESHOLD.min)).check(z.lte(THRESHOLD.max)),
    `The anonymity threshold of this survey (${THRESHOLD.min}..${THRESHOLD.max}); absent or null: the company's`,
  );

const questionInput = () =>
  z.strictObject({
    kind: QuestionKind,
    text: nonBlank(1, LIMITS.questionLength),
    options: z.optional(z.array(nonBlank(1, LIMITS.optionLength)).check(z.maxLength(LIMITS.options))),
  });

export const Survey = /* @__PURE__ */ declared(() =>
  z.withMeta(
    z.object({
      id: z.string(),
      title: z.string(),
      status: z.enum(SURVEY_STATUSES),
      questions: z.array(SurveyQuestion),
      audience: SurveyAudience,
      opensAt: nullableIso(),
      closesAt: isoDateTime(),
      recurrence: z.nullable(z.object({ everyWeeks: z.number().check(z.int()) })),
      threshold: z.nullable(z.number().check(z.int())),
      reminders: z.nullable(z.object({ everyDays: z.number().check(z.int()) })),
      run: z.described(z.number().check(z.int()), 'The current (or last) run; 0 before the first opening'),
      runOpenedAt: nullableIso(),
      runClosesAt: nullableIso(),
      runAudience: z.described(
        z.nullable(z.number().check(z.int())),
        'People the current run asked (once its opening is done)',
      ),
      createdAt: isoDateTime(),
      updatedAt: isoDateTime(),
    }),
    { id: 'Survey' },
  ),
);

const QuestionResult = /* @__PURE__ */ declared(() =>
  z.withMeta(
    z.object({
      id: z.string(),
      counts: z.record(z.string(), z.number().check(z.int())),
      answers: z.number().check(z.int()),
      mean: z.optional(z.number()),
      enps: z.described(
        z.optional(z.number().check(z.int())),
        'Promoters (9–10) minus detractors (0–6), as a percentage',
      ),
      texts: z.optional(z.array(z.string())),
    }),
    { id: 'SurveyQuestionResult' },
  ),
);

export const SurveyResults = /* @__PURE__ */ declared(() =>
  z.withMeta(
    z.object({
      surveyId: z.string(),
      run: z.number().check(z.int()),
      threshold: z.number().check(z.int()),
      responses: z.number().check(z.int()),
      audience: z.nullable(z.number().check(z.int())),
      questions: z.described(z.array(QuestionResult), 'Empty while responses are fewer than the threshold'),
      by: z.nullable(z.enum(SLICE_DIMENSIONS)),
      slices: z.array(
        z.object({
          value: z.nullable(z.string()),
          responses: z.number().check(z.int()),
          questions: z.array(QuestionResult),
        }),
      ),
      suppressed: z.described(
        z.number().check(z.int()),
        'Slices not shown: below the threshold, or revealing one by subtraction',
      ),
      trend: z.array(
        z.object({
          run: z.number().check(z.int()),
          responses: z.number().check(z.int()),
          questions: z.array(
            z.object({ id: z.string(), mean: z.optional(z.number()), enps: z.optional(z.number().check(z.int())) }),
          ),
        }),
      ),
    }),
    { id: 'SurveyResults' },
  ),
);

const resultsQuery = () =>
  z.strictObject({
    by: z.optional(z.enum(SLICE_DIMENSIONS)),
    run: z.optional(z.pipe(z.string().check(z.regex(/^[0-9]+$/, 'must be a whole number')), z.transform(Number))),
  });

const admin = { area: 'surveys', auth: 'session' as const };
const writesSurvey = {
  table: 'write' as const,
  writes: [SurveyEntity],
  bucket: [{ prefix: 'documents/', actions: ['read' as const] }],
};

export const listSurveysRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    ...admin,
    name: 'list-surveys',
    method: 'GET',
    path: A,
    summary: 'Surveys, newest first (super admins and survey owners).',
    query: z.strictObject({ ...pageQuery() }),
    status: 200,
    response: page(Survey),
    errors: [400, 403],
  }),
);

export const createSurveyRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    ...admin,
    name: 'create-survey',
    method: 'POST',
    path: A,
    audit: { action: 'survey.create', delegated: true, target: { created: 'Survey' } },
    summary:
      'Creates a survey (a draft): questions (scale 1–5, eNPS 0–10, choice, multi, text), an audience, an opening time (absent: opened by POST .../open), a closing time, an optional recurrence, threshold and reminders.',
    body: z.strictObject({
      title: nonBlank(1, LIMITS.title),
      questions: z.array(questionInput()).check(z.minLength(1)).check(z.maxLength(LIMITS.questions)),
      audience: z.optional(SurveyAudience),
      opensAt: z.optional(z.nullable(z.iso.datetime({ offset: true }))),
      closesAt: z.iso.datetime({ offset: true }),
      recurrence: z.optional(z.nullable(recurrence())),
      threshold: z.optional(z.nullable(threshold())),
      reminders: z.optional(z.nullable(reminders())),
    }),
    status: 201,
    response: Survey,
    errors: [400, 403],
    access: writesSurvey,
  }),
);

export const getSurveyRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    ...admin,
    name: 'get-survey',
    method: 'GET',
    path: `${A}/{surveyId}`,
    summary: 'One survey.',
    status: 200,
    response: Survey,
    errors: [403, 404],
  }),
);

export const updateSurveyRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    ...admin,
    name: 'update-survey',
    method: 'PATCH',
    path: `${A}/{surveyId}`,
    audit: { action: 'survey.update', delegated: true, target: { params: ['surveyId'] } },
    summary: 'Edits a draft (409 once it has opened).',
    body: z.strictObject({
      title: z.optional(nonBlank(1, LIMITS.title)),
      questions: z.optional(z.array(questionInput()).check(z.minLength(1)).check(z.maxLength(LIMITS.questions))),
      audience: z.optional(SurveyAudience),
      opensAt: z.optional(z.nullable(z.iso.datetime({ offset: true }))),
      closesAt: z.optional(z.iso.datetime({ offset: true })),
      recurrence: z.optional(z.nullable(recurrence())),
      threshold: z.optional(z.nullable(threshold())),
      reminders: z.optional(z.nullable(reminders())),
    }),
    status: 200,
    response: Survey,
    errors: [400, 403, 404, 409],
    access: writesSurvey,
  }),
);

export const deleteSurveyRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    ...admin,
    name: 'delete-survey',
    method: 'DELETE',
    path: `${A}/{surveyId}`,
    audit: { action: 'survey.delete', delegated: true, target: { params: ['surveyId'] } },
    summary: 'Deletes a draft (409 once it has opened: close it instead).',
    status: 204,
    errors: [403, 404, 409],
    access: { table: 'write', writes: [SurveyEntity] },
  }),
);

export const openSurveyRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    ...admin,
    name: 'open-survey',
    method: 'POST',
    path: `${A}/{surveyId}/open`,
    audit: { action: 'survey.open', delegated: true, target: { params: ['surveyId'] } },
    summary: "Opens a draft's first run now; its audience is frozen and told in the background.",
    status: 200,
    response: Survey,
    errors: [400, 403, 404, 409],
    access: { table: 'write', writes: [SurveyEntity] },
  }),
);

export const closeSurveyRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    ...admin,
    name: 'close-survey',
    method: 'POST',
    path: `${A}/{surveyId}/close`,
    audit: { action: 'survey.close', delegated: true, target: { params: ['surveyId'] } },
    summary: 'Closes the open run now (a recurring survey still opens its next run on time).',
    status: 200,
    response: Survey,
    errors: [403, 404, 409],
    access: { table: 'write', writes: [SurveyEntity] },
  }),
);

export const getSurveyResultsRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    ...admin,
    name: 'get-survey-results',
    method: 'GET',
    path: `${A}/{surveyId}/results`,
    summary:
      "A run's results (the current one unless `run`): totals, counts, mean (scale), eNPS, free text; by slice with `by`. Nothing below the threshold is shown; a slice whose subtraction would reveal a suppressed one is suppressed too. Trend: each run's responses, means and eNPS.",
    query: resultsQuery(),
    status: 200,
    response: SurveyResults,
    errors: [400, 403, 404],
  }),
);

export const getSurveyResultsCsvRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    ...admin,
    name: 'get-survey-results-csv',
    method: 'GET',
    path: `${A}/{surveyId}/results.csv`,
    summary: 'The same results as CSV (text/csv): one row per question and value, for the run and each shown slice.',
    query: resultsQuery(),
    status: 200,
    raw: true,
    errors: [400, 403, 404],
  }),
);

const Owner = /* @__PURE__ */ declared(() =>
  z.withMeta(z.object({ userId: z.string(), namedAt: isoDateTime() }), { id: 'SurveyOwner' }),
);

export const listSurveyOwnersRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    area: 'surveys',
    name: 'list-survey-owners',
    method: 'GET',
    path: `${API_PREFIX}/admin/survey-owners`,
    auth: 'super_admin',
    summary: 'The people named survey owners.',
    query: z.strictObject({ ...pageQuery() }),
    status: 200,
    response: page(Owner),
    errors: [400],
  }),
);

export const nameSurveyOwnerRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    area: 'surveys',
    name: 'name-survey-owner',
    method: 'PUT',
    path: `${API_PREFIX}/admin/survey-owners/{userId}`,
    auth: 'super_admin',
    audit: { action: 'survey.owner.add', target: { params: ['userId'] } },
    summary: 'Names a person a survey owner: they may create and manage surveys and read their results.',
    status: 200,
    response: Owner,
    errors: [404],
    access: { table: 'write', writes: [SurveyOwner] },
  }),
);

export const removeSurveyOwnerRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    area: 'surveys',
    name: 'remove-survey-owner',
    method: 'DELETE',
    path: `${API_PREFIX}/admin/survey-owners/{userId}`,
    auth: 'super_admin',
    audit: { action: 'survey.owner.remove', target: { params: ['userId'] } },
    summary: 'Takes survey ownership from a person.',
    status: 204,
    errors: [404],
    access: { table: 'write', writes: [SurveyOwner] },
  }),
);

const Settings = /* @__PURE__ */ declared(() =>
  z.withMeta(z.object({ threshold: z.number().check(z.int()) }), { id: 'SurveySettings' }),
);

export const getSurveySettingsRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    area: 'surveys',
    name: 'get-survey-settings',
    method: 'GET',
    path: `${API_PREFIX}/admin/survey-settings`,
    auth: 'super_admin',
    summary: `The company's survey settings: the anonymity threshold (${THRESHOLD.default} unless set).`,
    status: 200,
    response: Settings,
  }),
);

export const setSurveySettingsRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    area: 'surveys',
    name: 'set-survey-settings',
    method: 'PUT',
    path: `${API_PREFIX}/admin/survey-settings`,
    auth: 'super_admin',
    audit: { action: 'survey.settings.set', target: {} },
    summary: `Sets the company's anonymity threshold (${THRESHOLD.min}..${THRESHOLD.max}).`,
    body: z.strictObject({ threshold: threshold() }),
    status: 200,
    response: Settings,
    errors: [400],
    access: { table: 'write', writes: [SurveySettings] },
  }),
);

const member = { area: 'surveys', auth: 'session' as const, anonymous: true };

export const listOpenSurveysRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    ...member,
    name: 'list-open-surveys',
    method: 'GET',
    path: M,
    summary: "The caller's open surveys, soonest closing first, each with whether they answered it.",
    query: z.strictObject({ ...pageQuery() }),
    status: 200,
    response: page(
      z.withMeta(
        z.object({
          id: z.string(),
          title: z.string(),
          questions: z.array(SurveyQuestion),
          run: z.number().check(z.int()),
          opensAt: isoDateTime(),
          closesAt: isoDateTime(),
          answered: z.boolean(),
        }),
        { id: 'OpenSurvey' },
      ),
    ),
    errors: [400],
  }),
);

const AnswerBody = /* @__PURE__ */ declared(() =>
  z.strictObject({
    answers: z
      .array(
        z.strictObject({
          questionId: z.string().check(z.minLength(1)).check(z.maxLength(200)),
          value: z.union([
            z.number(),
            z.string().check(z.maxLength(LIMITS.textAnswer)),
            z.array(z.string().check(z.maxLength(LIMITS.optionLength))).check(z.maxLength(LIMITS.options)),
          ]),
        }),
      )
      .check(z.minLength(1))
      .check(z.maxLength(LIMITS.questions)),
  }),
);

export const putSurveyAnswerRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    ...member,
    name: 'put-survey-answer',
    method: 'PUT',
    path: `${M}/{surveyId}/answer`,
    summary:
      "Records or replaces the caller's answer while the run is open. Stored apart from the caller: nothing links it to them but a keyed tag only the service can recompute (docs/surveys.md).",
    body: AnswerBody,
    status: 204,
    errors: [400, 404, 409],
    access: { table: 'write', writes: [SurveyParticipation, SurveyRollup, SurveyText] },
  }),
);

export const getSurveyAnswerRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    ...member,
    name: 'get-survey-answer',
    method: 'GET',
    path: `${M}/{surveyId}/answer`,
    summary: "The caller's own answer to the open run, through their own session only (404 when they gave none).",
    status: 200,
    response: z.object({
      answers: z.array(
        z.object({ questionId: z.string(), value: z.union([z.number(), z.string(), z.array(z.string())]) }),
      ),
    }),
    errors: [404],
  }),
);

export const surveyRoutes = [
  listSurveysRoute,
  createSurveyRoute,
  getSurveyRoute,
  updateSurveyRoute,
  deleteSurveyRoute,
  openSurveyRoute,
  closeSurveyRoute,
  getSurveyResultsRoute,
  getSurveyResultsCsvRoute,
  listSurveyOwnersRoute,
  nameSurveyOwnerRoute,
  removeSurveyOwnerRoute,
  getSurveySettingsRoute,
  setSurveySettingsRoute,
  listOpenSurveysRoute,
  putSurveyAnswerRoute,
  getSurveyAnswerRoute,
];
