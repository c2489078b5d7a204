import { type EntityItem, entity, keyOnly, shape } from '../db/entity.ts';
import type { Question, SliceValues, SurveyAudience, SurveyStatus } from './model.ts';

/**
 * The survey area's entities (docs/surveys.md, docs/data-model.md "Surveys"), each declared once.
 *
 * Anonymity at rest, as in the grievance channel: no item that holds or counts an answer names its
 * person, in its key or its attributes. Those items are `anon` (kept out of the change feed) and hold
 * tags and seals only (anonymity.ts, under SURVEY_SECRET):
 * - `SurveyParticipation`, addressed by tag(person, survey, run) and storing nothing else in the clear;
 * - `SurveyRollup`, the running totals, sealed (a total of a small slice would otherwise show a table
 *   reader a few people's answers);
 * - `SurveyText`, one free-text answer, sealed, under a random id (not time-sortable).
 * The items that name a person (their place in a run's audience, `SurveyMember`; a survey owner) say
 * nothing of whether or how they answered.
 */

/** A survey and its current run (each opening of a recurring survey is a run, numbered from 1). */
export const Survey = entity({
  name: 'Survey',
  fields: shape<{
    id: string;
    title: string;
    questions: Question[];
    audience: SurveyAudience;
    /** When the first run opens by itself; null: opened by `POST .../open`. */
    opensAt: string | null;
    /** When the first run closes. */
    closesAt: string;
    recurrence: { everyWeeks: number } | null;
    /** Its own anonymity threshold; null: the company's. */
    threshold: number | null;
    /** Reminders to those who have not answered, every so many days while a run is open; null: none. */
    reminders: { everyDays: number } | null;
    status: SurveyStatus;
    /** The current (or last) run; 0 before the first opening. */
    run: number;
    /** When run 1 opened: later runs open `everyWeeks` after it, each further one. */
    firstOpenedAt: string | null;
    runOpenedAt: string | null;
    runClosesAt: string | null;
    /** People the current run asked (set by the fan-out at its opening). */
    runAudience: number | null;
    /** When the current run's audience was frozen and its people told (the fan-out's mark). */
    runFannedOutAt: string | null;
    lastRemindedAt: string | null;
    /** Set while the opened run's fan-out has not run (the stream consumer's filter, fan-out.ts). */
    fanOut?: 'pending';
    /** The next time the schedule has something to do with it (open, close, remind); absent: nothing. */
    nextAt?: string;
    createdBy: string;
    createdAt: string;
    updatedAt: string;
    rev: number;
    actorId: string | null;
  }>(),
  key: { pk: ['SURVEY', 'id'], sk: ['SURVEY'] },
  indexes: {
    all: { index: 'gsi1', pk: ['SURVEYS'], sk: ['createdAt', 'id'] },
    due: { index: 'gsi2', pk: ['SURVEYS_DUE'], sk: ['nextAt', 'id'], when: (s) => typeof s.nextAt === 'string' },
  },
});
export type SurveyItem = EntityItem<typeof Survey>;

/**
 * A person asked by one run of a survey, written by the fan-out at the opening (the audience frozen
 * then), under the person: `GET /surveys` reads a page of these whose run still closes in the future.
 * Their slice values are frozen with it. Says nothing of answering.
 */
export const SurveyMember = entity({
  name: 'SurveyMember',
  fields: shape<{
    userId: string;
    surveyId: string;
    run: number;
    closesAt: string;
    slices: SliceValues;
  }>(),
  key: { pk: ['SURVEY_MEMBER', 'userId'], sk: ['closesAt', 'surveyId', 'run'] },
  indexes: { byRun: { index: 'gsi1', pk: ['SURVEY_RUN', 'surveyId', 'run'], sk: ['userId'] } },
});
export type SurveyMemberItem = EntityItem<typeof SurveyMember>;

/**
 * Whether a person answered one run, addressed by tag(person, survey, run) alone; their answer and the
 * slices it was counted in, sealed (so that replacing it can take it out of the roll-ups, and they may
 * read it back through their own session), and the ids of their free-text items.
 */
export const SurveyParticipation = entity({
  name: 'SurveyParticipation',
  fields: shape<{ sealed: string; rev: number }>(),
  keyOnly: keyOnly<{ tag: string }>('tag'),
  key: { pk: ['SURVEY_PART', 'tag'], sk: ['PART'] },
  anon: true,
});

/**
 * A running total of one run: `TOTAL`, or one slice (`by#<dimension>#<slice tag>`), its counts sealed;
 * each answer rewrites the total and its four slices, conditioned on `rev`.
 */
export const SurveyRollup = entity({
  name: 'SurveyRollup',
  fields: shape<{ surveyId: string; run: number; slice: string; sealed: string; rev: number }>(),
  key: { pk: ['SURVEY_ROLLUP', 'surveyId', 'run'], sk: ['slice'] },
  anon: true,
});

/** One free-text answer to one question of one run, sealed, under a random id. */
export const SurveyText = entity({
  name: 'SurveyText',
  fields: shape<{ surveyId: string; run: number; questionId: string; id: string; sealed: string }>(),
  key: { pk: ['SURVEY_TEXT', 'surveyId', 'run', 'questionId'], sk: ['id'] },
  anon: true,
});

/** A person a super admin named a survey owner: they may create and manage surveys. */
export const SurveyOwner = entity({
  name: 'SurveyOwner',
  fields: shape<{ userId: string; namedAt: string; actorId: string }>(),
  key: { pk: ['SURVEY_OWNER', 'userId'], sk: ['OWNER'] },
  indexes: { all: { index: 'gsi1', pk: ['SURVEY_OWNERS'], sk: ['userId'] } },
});

/** The company's survey settings: the anonymity threshold (3..10, 5 when never set). */
export const SurveySettings = entity({
  name: 'SurveySettings',
  fields: shape<{ threshold: number; updatedAt: string; actorId: string }>(),
  key: { pk: ['SURVEY_SETTINGS'], sk: ['SETTINGS'] },
});
