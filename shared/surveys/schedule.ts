import { notifyMany } from '../notifications/notify-many.ts';
import { deliverPush } from '../push/delivery.ts';
import { answeredAmong } from './answers.ts';
import { Survey, type SurveyItem, SurveyMember } from './entities.ts';
import { changeSurvey, closedRun, openedRun, runOpensAt } from './surveys.ts';

/**
 * The survey schedule (every minute deployed, shared/api/background.ts): for each survey whose `nextAt`
 * has come (the `due` index, only surveys with something scheduled), opens a draft's first run at its
 * `opensAt`, closes a run at its closing time, opens a recurring survey's next run when its week comes,
 * and sends the reminders due. Each step is one conditioned change of the survey, so a rerun repeats
 * nothing. Answers what it did, in counts only.
 */
export async function runSurveySchedule(
  now = new Date(),
): Promise<{ opened: number; closed: number; reminded: number }> {
  const due = (await Survey.queryAll({ index: 'due', key: {} }, { max: 10_000 })).filter(
    (s) => s.nextAt && s.nextAt <= now.toISOString(),
  );
  const done = { opened: 0, closed: 0, reminded: 0 };
  for (const s of due) {
    // A survey late by more than one step (closed and due to reopen) takes them in turn.
    for (let step = 0; step < 3; step++) {
      let action: 'open' | 'close' | 'remind' | null = null;
      const after = await changeSurvey(s.id, (x) => {
        action = actionOf(x, now);
        if (action === 'open') return openedRun(x, now, null);
        if (action === 'close') return closedRun(x, now, null);
        if (action === 'remind') return { ...x, lastRemindedAt: now.toISOString(), actorId: null };
        return null;
      });
      if (!action) break;
      if (action === 'open') done.opened++;
      if (action === 'close') done.closed++;
      if (action === 'remind') done.reminded += await remind(after);
    }
  }
  return done;
}

function actionOf(s: SurveyItem, now: Date): 'open' | 'close' | 'remind' | null {
  const t = now.toISOString();
  if (s.status === 'draft') return s.opensAt && s.opensAt <= t ? 'open' : null;
  if (s.status === 'open') {
    if (s.runClosesAt! <= t) return 'close';
    if (s.reminders && s.runFannedOutAt && s.nextAt && s.nextAt <= t && s.nextAt < s.runClosesAt!) return 'remind';
    return null;
  }
  const next = s.recurrence ? runOpensAt(s, s.run + 1) : null;
  return next && next <= t ? 'open' : null;
}

const PAGE = 100;

/**
 * Reminds the people of the open run who have not answered (their participation records looked up by
 * tag, a page of people at a time): a notification and a push each. Answers how many, in all: never per
 * slice, so the count says nothing of who answered in a small one.
 */
export async function remind(s: SurveyItem): Promise<number> {
  const members = await SurveyMember.queryAll(
    { index: 'byRun', key: { surveyId: s.id, run: s.run } },
    { max: 1_000_000 },
  );
  let reminded = 0;
  for (let i = 0; i < members.length; i += PAGE) {
    const ids = members.slice(i, i + PAGE).map((m) => m.userId);
    const answered = await answeredAmong(ids, s.id, s.run);
    const notes = ids
      .filter((id) => !answered.has(id))
      .map((recipientId) => ({
        recipientId,
        kind: 'survey' as const,
        actorId: null,
        preview: `Reminder: a survey is open until ${s.runClosesAt!.slice(0, 10)}: ${s.title}`,
      }));
    await notifyMany(notes);
    await deliverPush(notes);
    reminded += notes.length;
  }
  return reminded;
}
