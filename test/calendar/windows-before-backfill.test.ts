import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Meeting, MeetingSeat } from '../../shared/calendar/meetings/entities.ts';
import { listMeetings } from '../../shared/calendar/meetings/list.ts';
import { newSortableId } from '../../shared/db/ids.ts';
import { type Item, putMany, transact } from '../../shared/db/table.ts';
import { LeaveRequest } from '../../shared/hr/entities.ts';
import { listLeaveRequests } from '../../shared/hr/leave.ts';
import { WINDOW_INDEXES_MIGRATION } from '../../shared/migrations/window-indexes.ts';
import { getUser } from '../../shared/people/users.ts';
import { migrationById } from '../../shared/registry/migrations.ts';
import { startOfCompanyDay } from '../../shared/util/time.ts';
import { newMember, uniq } from '../support/api.ts';

/**
 * Expand and contract for the windows' new indexes: items stored before them (without the long-meeting
 * or ahead attributes) are still listed while their backfill is not done (the older read), and once the
 * backfill's writes are applied the new index finds them.
 */
const backfilled = vi.hoisted(() => ({ done: new Set<string>() }));
vi.mock('../../shared/migrations/done.ts', () => ({
  migrationDone: async (id: string) => backfilled.done.has(id),
}));

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
/** An item as the previous release stored it: without the attributes of the new sparse indexes. */
const older = (item: Item) => {
  const { gsi6pk, gsi6sk, gsi7pk, gsi7sk, ...rest } = item;
  return rest;
};
const backfill = async (migrationId: string, items: Item[]) => {
  const migration = migrationById(migrationId)!;
  for (const item of items) await transact(await migration.migrate(item));
};

beforeEach(() => backfilled.done.clear());

describe('windows before and after the backfill of their indexes', () => {
  it('lists a long meeting stored without the long-meeting index, then through it', async () => {
    const organizer = await newMember();
    const participant = await newMember();
    const today = startOfCompanyDay(new Date()).getTime();
    const m = Meeting.item({
      id: newSortableId(),
      topic: `Offsite ${uniq()}`,
      description: '',
      startsAt: iso(today - 2 * DAY),
      endsAt: iso(today + 2 * DAY),
      startUtc: iso(today - 2 * DAY),
      endUtc: iso(today + 2 * DAY),
      type: 'internal',
      meetLink: '',
      recordingLink: null,
      transcriptLink: null,
      organizerId: organizer.id,
      participantIds: [participant.id],
      externalEmails: [],
      cancelledAt: null,
      createdAt: iso(today - 3 * DAY),
      updatedAt: iso(today - 3 * DAY),
      version: 1,
      actorId: organizer.id,
    });
    const seat = MeetingSeat.item({
      meetingId: m.id,
      userId: participant.id,
      startUtc: m.startUtc,
      endUtc: m.endUtc,
      version: 1,
    });
    expect(typeof (m as Item).gsi6sk).toBe('number');
    const stored = [older(m), older(seat)];
    await putMany(stored);
    const listedBy = async (userId: string) =>
      (await listMeetings({ userId, role: 'member' }, {})).meetings.map((x) => x.id);

    // Before the backfill: read from the older by-end index.
    expect(await listedBy(organizer.id)).toContain(m.id);
    expect(await listedBy(participant.id)).toContain(m.id);
    // The new index alone does not have it yet (why the listing waits for the migration)...
    backfilled.done.add(WINDOW_INDEXES_MIGRATION);
    expect(await listedBy(participant.id)).not.toContain(m.id);
    // ...and has it once the migration's writes are applied.
    await backfill(WINDOW_INDEXES_MIGRATION, stored);
    expect(await listedBy(organizer.id)).toContain(m.id);
    expect(await listedBy(participant.id)).toContain(m.id);
    expect(await migrationById(WINDOW_INDEXES_MIGRATION)!.migrate((await Meeting.get({ id: m.id }))!)).toEqual([]);
  });

  it('lists a leave request made long before its leave, stored without the ahead index, then through it', async () => {
    const manager = await newMember();
    const employee = (await getUser((await newMember({ managerId: manager.id })).id))!;
    const made = new Date(Date.now() - 500 * DAY);
    const r = LeaveRequest.item({
      id: newSortableId(made),
      employeeId: employee.id,
      leaveType: 'Sabbatical',
      fromDate: iso(Date.now() + 3 * DAY).slice(0, 10),
      toDate: iso(Date.now() + 9 * DAY).slice(0, 10),
      reason: uniq(),
      selectedManagerId: manager.id,
      status: 'PENDING',
      processedById: null,
      processedAt: null,
      processComment: null,
      createdAt: made.toISOString(),
      actorId: employee.id,
    });
    expect(typeof (r as Item).gsi6sk).toBe('number');
    await putMany([older(r)]);
    const listed = async () => (await listLeaveRequests(employee, { scope: 'requests' })).requests.map((x) => x.id);

    expect(await listed()).toEqual([r.id]);
    backfilled.done.add(WINDOW_INDEXES_MIGRATION);
    expect(await listed()).toEqual([]);
    await backfill(WINDOW_INDEXES_MIGRATION, [older(r)]);
    expect(await listed()).toEqual([r.id]);
  });
});
