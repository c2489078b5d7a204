import type { UserItem } from '../../people/users.ts';
import { companyDate } from '../../util/time.ts';
import { claimAnnouncements } from './announce.ts';
import { birthdayPeople } from './people.ts';
import { wishState } from './wishes.ts';

/**
 * `GET /birthdays/today`: the people celebrating today in the company's timezone (never their date
 * of birth). The first read of the day on somebody's birthday also claims its announcement, which
 * the company fan-out consumer adds to the day's one notification per person and sends (announce.ts): the request's work is O(birthday people).
 */
export async function todaysBirthdays(viewer: UserItem, now = new Date()) {
  const today = companyDate(now);
  const people = await birthdayPeople(today);
  await claimAnnouncements(people, today);
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

/**
 * The birthday sweep (shortly after midnight in the company's timezone): claims today's
 * announcements nobody claimed yet and takes over stalled ones; the fan-out consumer sends them.
 */
export async function sweepBirthdays(now = new Date()): Promise<{ date: string; people: number; claimed: number }> {
  const today = companyDate(now);
  const people = await birthdayPeople(today);
  const claimed = await claimAnnouncements(people, today);
  return { date: today, people: people.length, claimed: claimed.length };
}
