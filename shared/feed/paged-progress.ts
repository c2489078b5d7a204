import type { UpdateParts } from '../db/entity.ts';

/**
 * The progress a background pass keeps while it goes through an audience page by page (a notice's
 * recipients, a targeted post's or event's readers, a must-read's people): pages recorded so far
 * (`step`), where the next page starts (`cursor`), people recorded (`sent`) and when it finished
 * (`doneAt`).
 */
export interface PagedProgress {
  step: number;
  cursor?: string | null;
  sent: number;
  doneAt?: string;
}

/**
 * The update that records one more page of `n` people, conditional on the step read, so that a page
 * is recorded exactly once however many attempts race for it or however often the stream redelivers
 * (the loser's transaction fails on the condition and it stops: the winner goes on). `cursor`, when
 * given, is where the next page starts; `counters` are further attributes that grow by `n` too.
 * Answers the update and the progress as it is once the update is written.
 */
export function nextPageOf<P extends PagedProgress>(
  progress: P,
  n: number,
  next: { done: boolean; cursor?: string | null; at: string; counters?: readonly (keyof P & string)[] },
): { parts: UpdateParts; progress: P } {
  const { done, cursor, at, counters = [] } = next;
  const sets = ['#step = :next', '#sent = #sent + :n'];
  const names: Record<string, string> = { '#step': 'step', '#sent': 'sent' };
  const grown: Record<string, number> = { sent: progress.sent + n };
  for (const [i, counter] of counters.entries()) {
    sets.push(`#c${i} = #c${i} + :n`);
    names[`#c${i}`] = counter;
    grown[counter] = (progress[counter] as number) + n;
  }
  if (cursor !== undefined) {
    sets.push('#cursor = :cursor');
    names['#cursor'] = 'cursor';
  }
  if (done) sets.push('doneAt = :now');
  return {
    parts: {
      UpdateExpression: `SET ${sets.join(', ')}`,
      ConditionExpression: '#step = :step AND attribute_not_exists(doneAt)',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: {
        ':next': progress.step + 1,
        ':n': n,
        ':step': progress.step,
        ...(cursor !== undefined ? { ':cursor': cursor } : {}),
        ...(done ? { ':now': at } : {}),
      },
    },
    progress: {
      ...progress,
      ...grown,
      step: progress.step + 1,
      ...(cursor !== undefined ? { cursor } : {}),
      ...(done ? { doneAt: at } : {}),
    },
  };
}
