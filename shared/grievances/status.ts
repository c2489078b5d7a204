import { newSortableId } from '../db/ids.ts';
import { retryOnConflict, type TransactItem } from '../db/table.ts';
import { conflict, notFound } from '../errors.ts';
import { seal } from './anonymity.ts';
import { type GrievanceItem, GrievanceStatusChange } from './entities.ts';
import { loadGrievance, viewFor } from './grievances.ts';
import { applyHandling, configuredPeriods } from './handling.ts';
import { grievanceChangeWrite, handlingEntryWrites } from './handling-index.ts';
import { authoredText } from './mentions.ts';
import { isEntityId, sealContexts } from './model.ts';
import { raiserNotice, raiserOf, transactWithNotices } from './notices.ts';
import { statsWrites } from './stats-fields.ts';
import { movedDeltas, totalsWrite } from './totals.ts';
import { statusChangeViews } from './views.ts';
import { isFinished, type Status } from './vocabulary.ts';

const MAX_ATTEMPTS = 10;

/**
 * A handler moves a grievance (any status to any, the same one included), with a reason. The grievance
 * update (with its handling record: handling.ts), its history entry, the board totals, the statistics,
 * the handling index entries and the raiser's queued notice (delivered by a later batch: notices.ts)
 * are one transaction conditioned on the move counter and handling revision read,
 * so concurrent moves each leave exactly one entry, in commit order; a move that lost the race
 * re-reads and applies on top.
 */
export async function moveStatus(handlerId: string, grievanceId: string, to: Status, sentReason: string) {
  // Employees read the reason but never learn which handler wrote it: their own `@[id]` would tell.
  const reason = authoredText('reason', sentReason, handlerId, 3);
  return retryOnConflict(
    async () => {
      const g = await loadGrievance(grievanceId);
      const now = new Date();
      const at = now.toISOString();
      const moved: GrievanceItem = {
        ...g,
        status: to,
        // Set on the first move to a finished status, kept between finished ones, cleared on reopen.
        resolvedAt: isFinished(to) ? (g.resolvedAt ?? at) : null,
        statusNote: reason,
        statusNoteAt: at,
        updatedAt: at,
        moves: g.moves + 1,
      };
      const changeId = newSortableId(now);
      const raiserId = raiserOf(g);
      const totals = totalsWrite(movedDeltas(g.status, to, g.category));
      const handled = applyHandling(g, moved, { kind: 'move', to }, now, configuredPeriods());
      const items: TransactItem[] = [
        grievanceChangeWrite(g, handled.item),
        GrievanceStatusChange.create({
          id: changeId,
          grievanceId: g.id,
          move: moved.moves,
          fromStatus: g.status,
          toStatus: to,
          reason,
          createdAt: at,
          changedBySeal: seal(handlerId, sealContexts.changedBy(g.id, changeId)),
        }),
        ...(totals ? [totals] : []),
        ...statsWrites(handled.stats),
        ...handlingEntryWrites(g, handled.item),
      ];
      await transactWithNotices(items, g.id, raiserId && raiserId !== handlerId ? [raiserNotice(raiserId)] : [], now);
      return viewFor(handlerId, handled.item);
    },
    { attempts: MAX_ATTEMPTS, exhausted: () => conflict('The grievance kept changing meanwhile. Try again.') },
  );
}

/**
 * The history, newest first, ending with the raised entry. Every grievance has that entry, so an empty
 * history means no such grievance: one Query, bounded by the number of moves on the grievance.
 */
export async function listStatusChanges<Admin extends boolean>(grievanceId: string, { admin }: { admin: Admin }) {
  if (!isEntityId(grievanceId)) throw notFound('No such grievance.');
  const items = await GrievanceStatusChange.queryAll({ key: { grievanceId }, forward: false, consistent: true });
  if (items.length === 0) throw notFound('No such grievance.');
  return statusChangeViews(items, { admin });
}
