import { encodeCursor } from '../../../shared/db/cursor.ts';
import { handler as probe } from './probe.ts';

/** The probe, in a function whose code seals paging cursors (and so reads the cursor secret). */
export async function handler(event: Parameters<typeof probe>[0] | { op: 'cursor' }) {
  if (event.op === 'cursor') return { ok: true, value: encodeCursor('probe', { pk: 'P#1' }) };
  return probe(event);
}
