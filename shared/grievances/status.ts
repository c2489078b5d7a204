import { newSortableId } from '../db/ids.ts';
import {
  grievanceBoardAttributes,
  grievanceKey,
  grievanceStatusChangeKey,
  grievanceStatusChangesPrefix,
} from '../db/keys.ts';
import { isConditionFailure, queryAll, type TransactItem } from '../db/table.ts';
import { conflict, notFound } from '../errors.ts';
import { seal } from './anonymity.ts';
import { loadGrievance, viewFor } from './grievances.ts';
import {
  ANON,
  type GrievanceItem,
  isEntityId,
  isFinished,
  type Status,
  type StatusChangeItem,
  sealContexts,
} from './model.ts';
import { raiserNotice, raiserOf, transactWithNotices } from './notices.ts';
import { movedDeltas, totalsWrite } from './totals.ts';
import { statusChangeViews } from './views.ts';

const MAX_ATTEMPTS = 10;

/**
 * A handler moves a grievance (spec 3.1, decisions 2: any status to any, the same one included), with
 * a reason. The grievance update, its history entry, the board totals and the raiser's queued notice
 * (delivered by a later batch: notices.ts) are one transaction conditioned on the move counter read,
 * so concurrent moves each leave exactly one entry, in commit order; a move that lost the race
 * re-reads and applies on top.
 */
export async function moveStatus(handlerId: string, grievanceId: string, to: Status, reason: string) {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const g = await loadGrievance(grievanceId);
    const now = new Date();
    const at = now.toISOString();
    const moved: GrievanceItem = {
      ...g,
      ...grievanceBoardAttributes({ id: g.id, status: to, category: g.category, createdAt: g.createdAt }),
      status: to,
      // Set on the first move to a finished status, kept between finished ones, cleared on reopen.
      resolvedAt: isFinished(to) ? (g.resolvedAt ?? at) : null,
      statusNote: reason,
      statusNoteAt: at,
      updatedAt: at,
      moves: g.moves + 1,
    };
    const changeId = newSortableId(now);
    const change: StatusChangeItem = {
      ...grievanceStatusChangeKey(g.id, moved.moves),
      ...ANON,
      entity: 'GrievanceStatusChange',
      id: changeId,
      grievanceId: g.id,
      fromStatus: g.status,
      toStatus: to,
      reason,
      createdAt: at,
      changedBySeal: seal(handlerId, sealContexts.changedBy(g.id, changeId)),
    };
    const raiserId = raiserOf(g);
    const totals = totalsWrite(movedDeltas(g.status, to, g.category));
    const items: TransactItem[] = [
      grievanceUpdate(g, moved),
      { Put: { Item: change, ConditionExpression: 'attribute_not_exists(pk)' } },
      ...(totals ? [totals] : []),
    ];
    try {
      await transactWithNotices(items, g.id, raiserId && raiserId !== handlerId ? [raiserNotice(raiserId)] : [], now);
    } catch (err) {
      if (isConditionFailure(err)) continue;
      throw err;
    }
    return viewFor(handlerId, moved);
  }
  throw conflict('The grievance kept changing meanwhile. Try again.');
}

/** The move's changes to the grievance item, conditioned on the move counter read. */
function grievanceUpdate(before: GrievanceItem, after: GrievanceItem): TransactItem {
  // The board index attributes follow the status (keys.ts decides which of them change).
  const board = Object.keys(grievanceBoardAttributes(after));
  const fields = ['status', 'resolvedAt', 'statusNote', 'statusNoteAt', 'updatedAt', 'moves', ...board];
  return {
    Update: {
      Key: grievanceKey(before.id),
      UpdateExpression: `SET ${fields.map((_f, i) => `#f${i} = :v${i}`).join(', ')}`,
      ConditionExpression: '#moves = :before',
      ExpressionAttributeNames: { ...Object.fromEntries(fields.map((f, i) => [`#f${i}`, f])), '#moves': 'moves' },
      ExpressionAttributeValues: {
        ...Object.fromEntries(
          fields.map((f, i) => [`:v${i}`, (after as unknown as Record<string, unknown>)[f] ?? null]),
        ),
        ':before': before.moves,
      },
    },
  };
}

/**
 * The history, newest first, ending with the raised entry. Every grievance has that entry, so an empty
 * history means no such grievance: one Query, bounded by the number of moves on the grievance.
 */
export async function listStatusChanges<Admin extends boolean>(grievanceId: string, { admin }: { admin: Admin }) {
  if (!isEntityId(grievanceId)) throw notFound('No such grievance.');
  const items = await queryAll<StatusChangeItem>({
    ...grievanceStatusChangesPrefix(grievanceId),
    forward: false,
    consistent: true,
  });
  if (items.length === 0) throw notFound('No such grievance.');
  return statusChangeViews(items, { admin });
}
