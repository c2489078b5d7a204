import { expect } from 'vitest';
import { expectStatus, type Person, person } from '../people/helpers.ts';
import { admin, api, uniq } from '../support/api.ts';

/** Shared steps of the survey tests (over HTTP, against the file's local runtime). */
export { expectStatus, type Person };

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
export const WEEK = 7 * DAY;

export async function adminCall(method: string, path: string, body?: unknown) {
  const a = await admin();
  return api(method, path, { token: a.token, ...(body === undefined ? {} : { body }) });
}

export const QUESTIONS = [
  { kind: 'scale', text: 'How are you doing this week?' },
  { kind: 'enps', text: 'How likely are you to recommend working here?' },
  { kind: 'choice', text: 'Where do you work best?', options: ['office', 'home', 'both'] },
  { kind: 'multi', text: 'What helps?', options: ['quiet', 'people', 'tools'] },
  { kind: 'text', text: 'Anything else?' },
];

/** A manager and the people under them, each with a department and a location the company set. */
export async function team(
  shape: { department: string; location: string }[],
  { signIn = true }: { signIn?: boolean } = {},
): Promise<{ manager: Person; people: Person[]; tag: string }> {
  const tag = uniq();
  const manager = await person({ name: `Manager ${tag}`, department: 'hr' }, { signIn: false });
  const people: Person[] = [];
  // A few at a time: each is a creation, a sign-in and a profile change.
  for (let i = 0; i < shape.length; i += 5) {
    people.push(
      ...(await Promise.all(
        shape
          .slice(i, i + 5)
          .map((s, j) =>
            person(
              { name: `Member ${i + j} ${tag}`, department: s.department, managerId: manager.id },
              { signIn, profile: { location: `${s.location} ${tag}` } },
            ),
          ),
      )),
    );
  }
  return { manager, people, tag };
}

export async function createSurvey(body: Record<string, unknown>) {
  return expectStatus(
    await adminCall('POST', '/admin/surveys', {
      title: `Pulse ${uniq()}`,
      questions: QUESTIONS,
      closesAt: new Date(Date.now() + 7 * DAY).toISOString(),
      ...body,
    }),
    201,
    'create survey',
  );
}

export async function answer(p: Person, surveyId: string, answers: { questionId: string; value: unknown }[]) {
  const res = await api('PUT', `/surveys/${surveyId}/answer`, { token: p.token, body: { answers } });
  expect(res.status, res.text).toBe(204);
}

export async function openSurveys(p: { token: string }): Promise<any[]> {
  return expectStatus(await api('GET', '/surveys?limit=50', { token: p.token }), 200, 'open surveys').items;
}
