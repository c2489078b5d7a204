import { retryOnConflict, type TransactItem, transact } from '../db/table.ts';
import { conflict, invalid, notFound } from '../errors.ts';
import { type CompanyField, withCompanyValues } from './company-values.ts';
import { personWrites } from './derived-from-person.ts';
import { directoryShardsLive } from './directory-migration-state.ts';
import { syncTerms } from './directory-terms.ts';
import { Team, type UserItem } from './entities.ts';
import { getUser } from './users.ts';

/** Deep enough for any real organisation; keeps the transaction (one check per link) well under 100 items. */
const MAX_CHAIN = 40;

/**
 * The managers above `managerId`, each with the revision read (the transaction checks them, so a
 * concurrent change cannot close a loop). A person as their own manager, a chain that comes back to
 * them, or a manager who does not exist: 400. Costs one consistent read per link.
 */
async function managerChain(personId: string, managerId: string): Promise<Map<string, number | undefined>> {
  if (managerId === personId) throw invalid(['managerId: a person cannot be their own manager']);
  const chain = new Map<string, number | undefined>();
  for (let current: string | null = managerId; current; ) {
    if (current === personId) throw invalid(['managerId: this person is above the new manager; the chain would loop']);
    if (chain.has(current)) break; // a loop above that does not involve this person
    if (chain.size >= MAX_CHAIN) throw invalid(['managerId: the management chain is too long']);
    const manager = await getUser(current, true);
    if (!manager) {
      if (current === managerId) throw invalid(['managerId: no such person']);
      break;
    }
    chain.set(current, manager.rev);
    current = manager.managerId ?? null;
  }
  return chain;
}

/** The team exists and is not deleted (`deletingAt`), or 400 as for a team that does not exist. */
export async function assertTeamOpen(teamId: string): Promise<void> {
  const team = await Team.get({ id: teamId }, { consistent: true });
  if (!team || team.deletingAt) throw invalid(['teamId: no such team']);
}

export interface ChangeOptions {
  actorId: string | null;
  /** The change unassigns people from a team being deleted (its counter goes with it). */
  teamGone?: string;
  /** Items of another area that move with the change, in its transaction (an e-mail claim). */
  alongside?: (before: UserItem, after: UserItem) => TransactItem[];
  /**
   * The company's fields this change sets even where their value stays (a super admin's or SCIM's
   * profile change names them): the company's values take them (company-values.ts).
   */
  companySets?: readonly CompanyField[];
}

/**
 * Applies a change to a person: reads them (consistently), lets `apply` compute the new profile
 * (it may throw 4xx), validates what the new profile names (team, manager chain), and writes the
 * profile with everything derived from it in one transaction conditioned on what was read. A change
 * that lost a race is read and applied again. Answers the person as written.
 */
export async function changePerson(
  userId: string,
  apply: (current: UserItem) => UserItem | Promise<UserItem>,
  opts: ChangeOptions,
): Promise<UserItem> {
  // A lost race (or a reference that vanished meanwhile) fails a condition: read again and decide again.
  return retryOnConflict(
    async () => {
      const before = await getUser(userId, true);
      if (!before) throw notFound('No such person.');
      // A change the person makes themselves never moves what the company says about them (audiences).
      const after = withCompanyValues(before, await apply(before), {
        bySelf: opts.actorId === userId,
        sets: opts.companySets,
      });
      const managerChanged = !!after.managerId && after.managerId !== before.managerId;
      const chain = managerChanged ? await managerChain(userId, after.managerId!) : undefined;
      if (after.teamId && after.teamId !== before.teamId && after.teamId !== opts.teamGone)
        await assertTeamOpen(after.teamId);
      const shards = await directoryShardsLive();
      const items = personWrites(before, after, { actorId: opts.actorId, chain, teamGone: opts.teamGone, shards });
      if (items.length === 0) return before;
      await transact([...items, ...(opts.alongside?.(before, after) ?? [])]);
      return { ...after, rev: (before.rev ?? 0) + 1 };
    },
    { attempts: 6, exhausted: () => conflict('The profile changed while this request ran. Try again.') },
  ).then(async (person) => {
    // The person's directory terms follow their row before the answer (read-your-writes for `q` and the
    // filters); a crash in between leaves them to the person's next change or to a rerun of 0013.
    await syncTerms(userId);
    return person;
  });
}
