import { invalid } from '../errors.ts';

/** The survey area's vocabulary and the checks of what clients send (docs/surveys.md). */
export const QUESTION_KINDS = ['scale', 'enps', 'choice', 'multi', 'text'] as const;
export type QuestionKind = (typeof QUESTION_KINDS)[number];
export const SURVEY_STATUSES = ['draft', 'open', 'closed'] as const;
export type SurveyStatus = (typeof SURVEY_STATUSES)[number];
/** The dimensions results are sliced by (`?by=`). */
export const SLICE_DIMENSIONS = ['department', 'team', 'location', 'manager'] as const;
export type SliceDimension = (typeof SLICE_DIMENSIONS)[number];

export const LIMITS = {
  questions: 30,
  options: 20,
  optionLength: 120,
  questionLength: 500,
  textAnswer: 2000,
  title: 200,
  everyWeeks: 52,
  reminderDays: 30,
  /** Free-text answers a result shows per question (the newest are not told apart: ids are random). */
  texts: 100,
} as const;

/** The anonymity threshold: at least 3, at most 10, 5 unless the company or the survey sets another. */
export const THRESHOLD = { min: 3, max: 10, default: 5 } as const;

export interface Question {
  id: string;
  kind: QuestionKind;
  text: string;
  options?: string[];
}

/**
 * Who a survey asks, frozen at each opening: the company, a team, a department, the people under a
 * manager (their whole chain), or an audience of the audiences area (a stored one, or a rule).
 */
export type SurveyAudience =
  | { company: true }
  | { teamId: string }
  | { department: string }
  | { managerId: string }
  | { id: string }
  | { rule: unknown };

/** A person's slice values, frozen with the audience at the opening of a run. */
export interface SliceValues {
  department: string | null;
  team: string | null;
  location: string | null;
  manager: string | null;
}

export type AnswerValue = number | string | string[];
export interface Answer {
  questionId: string;
  value: AnswerValue;
}

/** The range of a numeric question. */
export const RANGE: Partial<Record<QuestionKind, [number, number]>> = { scale: [1, 5], enps: [0, 10] };

/** What is wrong with one value for its question, or null. */
function problemOf(q: Question, v: AnswerValue): string | null {
  const range = RANGE[q.kind];
  if (range)
    return typeof v === 'number' && Number.isInteger(v) && v >= range[0] && v <= range[1]
      ? null
      : `an integer from ${range[0]} to ${range[1]}`;
  if (q.kind === 'choice') return typeof v === 'string' && q.options?.includes(v) ? null : 'one of the options';
  if (q.kind === 'multi')
    return Array.isArray(v) && v.length > 0 && new Set(v).size === v.length && v.every((x) => q.options?.includes(x))
      ? null
      : 'distinct options, at least one';
  return typeof v === 'string' && v.trim() !== '' && v.length <= LIMITS.textAnswer
    ? null
    : `a text of 1 to ${LIMITS.textAnswer} characters`;
}

/** Checks the answers against the questions: each question at most once, each value of its kind. */
export function checkAnswers(questions: Question[], answers: Answer[]): Answer[] {
  const byId = new Map(questions.map((q) => [q.id, q]));
  const seen = new Set<string>();
  const problems: string[] = [];
  const out: Answer[] = [];
  answers.forEach((a, i) => {
    const q = byId.get(a.questionId);
    const at = `answers.${i}`;
    if (!q) problems.push(`${at}.questionId: no such question`);
    else if (seen.has(q.id)) problems.push(`${at}.questionId: answered twice`);
    else {
      seen.add(q.id);
      const problem = problemOf(q, a.value);
      if (problem) problems.push(`${at}.value: ${problem}`);
      else
        out.push({
          questionId: q.id,
          value: q.kind === 'text' && typeof a.value === 'string' ? a.value.trim() : a.value,
        });
    }
  });
  if (answers.length === 0) problems.push('answers: at least one');
  if (problems.length) throw invalid(problems);
  return out;
}

/** Checks the questions' options: choice and multi need 2 or more distinct ones, the others none. */
export function checkQuestions(questions: { kind: QuestionKind; text: string; options?: string[] }[]): void {
  const problems: string[] = [];
  questions.forEach((q, i) => {
    const choosing = q.kind === 'choice' || q.kind === 'multi';
    if (choosing && (!q.options || q.options.length < 2 || new Set(q.options).size !== q.options.length))
      problems.push(`questions.${i}.options: at least 2 distinct options`);
    if (!choosing && q.options !== undefined) problems.push(`questions.${i}.options: only for choice and multi`);
  });
  if (problems.length) throw invalid(problems);
}

export const clampThreshold = (n: number) => Math.min(THRESHOLD.max, Math.max(THRESHOLD.min, Math.round(n)));
