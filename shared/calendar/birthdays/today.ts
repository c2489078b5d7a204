import type { UserItem } from '../../people/users.ts';
import { companyDate } from '../time.ts';
import { type Audience, activeMembers, announceBirthdays } from './announce.ts';
import { birthdayPeople } from './people.ts';
import { wishState } from './wishes.ts';

/**
 * `GET /birthdays/today`: the people celebrating today in the company's timezone (never their date
 * of birth). The first read of the day on somebody's birthday also announces it to everyone.
 */
export async function todaysBirthdays(viewer: UserItem, now = new Date(), audience: Audience = activeMembers) {
  const today = companyDate(now);
  const people = await birthdayPeople(today);
  await announceBirthdays(people, today, audience);
  const state = await wishState(viewer.id, people, today);
  return people.map((p) => ({
    id: p.id,
    name: p.name,
    image: p.image ?? null,
    title: p.title ?? '',
    wished: state.wished(p.id),
    wishCount: p.id === viewer.id ? state.ownCount : 0,
  }));
}

/** The birthday sweep (shortly after midnight in the company's timezone): announces today's birthdays. */
export async function sweepBirthdays(
  now = new Date(),
  audience: Audience = activeMembers,
): Promise<{ date: string; people: number }> {
  const today = companyDate(now);
  const people = await birthdayPeople(today);
  await announceBirthdays(people, today, audience);
  return { date: today, people: people.length };
}
