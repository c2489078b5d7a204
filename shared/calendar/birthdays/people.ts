import { bornOn, celebratedMonthDays, celebratesOn } from '../../people/birthday-index.ts';
import { User, type UserItem } from '../../people/entities.ts';

/**
 * The people who celebrate on a company day, deactivated people left out: one Query of
 * the birthdays index per month-day (two on 28 February of a non-leap year), O(today's birthdays).
 */
export async function birthdayPeople(today: string): Promise<UserItem[]> {
  const found = await Promise.all(
    celebratedMonthDays(today).map((monthDay) =>
      User.queryAll({
        index: 'birthdays',
        key: { dateOfBirth: bornOn(monthDay) },
        filter: {
          FilterExpression: '#status <> :deactivated',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':deactivated': 'deactivated' },
        },
      }),
    ),
  );
  // The profile's own date decides; an index entry can only narrow the read.
  return found
    .flat()
    .filter((u) => celebratesOn(u.dateOfBirth, today))
    .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
}
