import { conflict } from '../errors.ts';
import { changePerson } from '../people/change-person.ts';

/**
 * Sets or lifts a person's legal hold: while set, neither the people retention nor a super admin can
 * erase them (erasure.ts conditions the erasure's start on it). An erasure already under way cannot be
 * held back: 409.
 */
export async function setLegalHold(userId: string, legalHold: boolean, actorId: string) {
  const user = await changePerson(
    userId,
    (u) => {
      if (u.erasureId) throw conflict('This account is already being erased.');
      return { ...u, legalHold: legalHold || undefined };
    },
    { actorId },
  );
  return { userId: user.id, legalHold: !!user.legalHold };
}
