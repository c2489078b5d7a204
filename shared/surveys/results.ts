import { page } from '../db/paging.ts';
import { notFound } from '../errors.ts';
import { unseal, unsealJson } from './anonymity.ts';
import { emptyTally, rollupContext, type SealedRollup, type Tally, TOTAL, textContext } from './answers.ts';
import { SurveyRollup, SurveyText } from './entities.ts';
import { LIMITS, type Question, RANGE, type SliceDimension } from './model.ts';
import { getSurvey, thresholdOf } from './surveys.ts';

/**
 * Results (docs/surveys.md, "Results"): read from the run's roll-ups, never from answers: the total
 * (one GetItem), the slices of one dimension (one Query of that dimension's roll-ups) and the totals of
 * the earlier runs (one BatchGet): O(slices + runs). Nothing below the threshold is shown: a run with
 * fewer responses shows no numbers, a slice with fewer is suppressed, and so is the next-smallest
 * sibling whenever the suppressed ones together are fewer than the threshold (their sum could be had
 * by subtracting the shown slices from the total). Free text only at the top, only at or above it.
 */

export interface QuestionResult {
  id: string;
  counts: Record<string, number>;
  answers: number;
  mean?: number;
  enps?: number;
  texts?: string[];
}

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

/** One question's figures from a tally. */
export function summarize(q: Question, t: Tally): QuestionResult {
  const c = t.q[q.id] ?? { counts: {}, sum: 0, n: 0 };
  const range = RANGE[q.kind];
  const keys = range
    ? Array.from({ length: range[1] - range[0] + 1 }, (_, i) => String(range[0] + i))
    : (q.options ?? []);
  const counts = Object.fromEntries(keys.map((k) => [k, c.counts[k] ?? 0]));
  const out: QuestionResult = { id: q.id, counts, answers: c.n };
  if (q.kind === 'scale' && c.n > 0) out.mean = round(c.sum / c.n);
  if (q.kind === 'enps' && c.n > 0) {
    let promoters = 0;
    let detractors = 0;
    for (const [k, n] of Object.entries(counts)) {
      if (Number(k) >= 9) promoters += n;
      else if (Number(k) <= 6) detractors += n;
    }
    out.enps = Math.round(((promoters - detractors) / c.n) * 100);
  }
  return out;
}

/**
 * Which slices may be shown: those with at least `k` responses, less the smallest shown ones while the
 * suppressed ones together number fewer than `k` (what subtraction from the total would reveal) and at
 * least one is suppressed.
 */
export function shownSlices<T extends { responses: number }>(slices: T[], k: number): { shown: T[]; suppressed: T[] } {
  const sorted = [...slices].sort((a, b) => a.responses - b.responses);
  const suppressed = sorted.filter((s) => s.responses < k);
  const shown = sorted.filter((s) => s.responses >= k);
  const sum = () => suppressed.reduce((n, s) => n + s.responses, 0);
  while (suppressed.length > 0 && sum() < k && shown.length > 0) suppressed.push(shown.shift()!);
  // A lone suppressed slice with no responses reveals nothing; one with some is hidden by its sibling above.
  return { shown, suppressed };
}

export interface Results {
  surveyId: string;
  run: number;
  threshold: number;
  responses: number;
  audience: number | null;
  questions: QuestionResult[];
  by: SliceDimension | null;
  slices: { value: string | null; responses: number; questions: QuestionResult[] }[];
  suppressed: number;
  trend: { run: number; responses: number; questions: { id: string; mean?: number; enps?: number }[] }[];
}

export async function surveyResults(surveyId: string, o: { by?: SliceDimension; run?: number }): Promise<Results> {
  const s = await getSurvey(surveyId);
  const run = o.run ?? s.run;
  if (run < 1 || run > s.run) throw notFound('The survey has no such run.');
  const k = await thresholdOf(s);
  const open = (slice: string, item?: { sealed: string }) =>
    item ? unsealJson<SealedRollup>(item.sealed, rollupContext(surveyId, run, slice)) : null;
  const total =
    open(TOTAL, await SurveyRollup.get({ surveyId, run, slice: TOTAL }, { consistent: true }))?.tally ?? emptyTally();
  const visible = total.responses >= k;
  const questions = visible ? s.questions.map((q) => summarize(q, total)) : [];
  if (visible) {
    for (const q of s.questions.filter((x) => x.kind === 'text')) {
      const { items } = await SurveyText.query(
        { key: { surveyId, run, questionId: q.id } },
        page({ limit: LIMITS.texts }),
      );
      const texts = items.flatMap((t) => {
        const v = unseal(t.sealed, textContext(surveyId, run, q.id, t.id));
        return v === null ? [] : [JSON.parse(v) as string];
      });
      const r = questions.find((x) => x.id === q.id);
      if (r) r.texts = texts;
    }
  }
  let slices: Results['slices'] = [];
  let suppressed = 0;
  if (o.by) {
    const prefix = `by#${o.by}#`;
    const items = await SurveyRollup.queryAll({ key: { surveyId, run }, skPrefix: prefix }, { max: 10_000 });
    const all = items.flatMap((it) => {
      const r = open(it.slice, it);
      return r && r.tally.responses > 0 ? [r] : [];
    });
    if (visible) {
      const cut = shownSlices(
        all.map((r) => ({ r, responses: r.tally.responses })),
        k,
      );
      suppressed = cut.suppressed.length;
      slices = cut.shown
        .map(({ r }) => ({
          value: r.value,
          responses: r.tally.responses,
          questions: s.questions.filter((q) => q.kind !== 'text').map((q) => summarize(q, r.tally)),
        }))
        .sort((a, b) => String(a.value).localeCompare(String(b.value)));
    } else suppressed = all.length;
  }
  const earlier = await SurveyRollup.getMany(
    Array.from({ length: s.run }, (_, i) => ({ surveyId, run: i + 1, slice: TOTAL })),
    { consistent: true },
  );
  const trend = earlier.flatMap((item, i) => {
    const t = item ? unsealJson<SealedRollup>(item.sealed, rollupContext(surveyId, i + 1, TOTAL))?.tally : null;
    if (!t) return [];
    const shown = t.responses >= k;
    return [
      {
        run: i + 1,
        responses: t.responses,
        questions: shown
          ? s.questions
              .filter((q) => q.kind === 'scale' || q.kind === 'enps')
              .map((q) => {
                const r = summarize(q, t);
                return {
                  id: q.id,
                  ...(r.mean === undefined ? {} : { mean: r.mean }),
                  ...(r.enps === undefined ? {} : { enps: r.enps }),
                };
              })
          : [],
      },
    ];
  });
  return {
    surveyId,
    run,
    threshold: k,
    responses: total.responses,
    audience: run === s.run ? s.runAudience : null,
    questions,
    by: o.by ?? null,
    slices,
    suppressed,
    trend,
  };
}

const cell = (v: unknown) => {
  const t = v === null || v === undefined ? '' : String(v);
  const safe = /^[=+\-@\t\r]/.test(t) ? `'${t}` : t;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

/** The results as CSV: one row per question and value, for the whole run and each shown slice. */
export async function surveyResultsCsv(surveyId: string, o: { by?: SliceDimension; run?: number }): Promise<string> {
  const r = await surveyResults(surveyId, o);
  const s = await getSurvey(surveyId);
  const text = new Map(s.questions.map((q) => [q.id, q]));
  const rows: unknown[][] = [
    ['run', 'dimension', 'slice', 'responses', 'questionId', 'question', 'kind', 'value', 'count', 'mean', 'enps'],
  ];
  const add = (dimension: string, slice: string | null, responses: number, qs: QuestionResult[]) => {
    for (const q of qs) {
      const def = text.get(q.id)!;
      const entries = Object.entries(q.counts);
      if (entries.length === 0)
        rows.push([r.run, dimension, slice, responses, q.id, def.text, def.kind, '', q.answers, q.mean, q.enps]);
      for (const [value, n] of entries)
        rows.push([r.run, dimension, slice, responses, q.id, def.text, def.kind, value, n, q.mean, q.enps]);
      for (const t of q.texts ?? [])
        rows.push([r.run, dimension, slice, responses, q.id, def.text, def.kind, t, 1, '', '']);
    }
  };
  add('all', null, r.responses, r.questions);
  for (const sl of r.slices) add(r.by ?? '', sl.value, sl.responses, sl.questions);
  return `${rows.map((row) => row.map(cell).join(',')).join('\r\n')}\r\n`;
}
