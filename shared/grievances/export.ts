import { type PdfLine, textPdf, unprintableCharacters } from '../documents/pdf.ts';
import { GrievanceReply } from './entities.ts';
import { loadGrievance } from './grievances.ts';
import { deadlinesOf } from './handling.ts';
import { ANONYMOUS_NAME } from './model.ts';
import { listStatusChanges } from './status.ts';
import { replyViews } from './views.ts';

/** What stands in for a tagged person in an exported body: the record names handlers only. */
const TAGGED_PERSON = '@[a person]';
const untagged = (body: string) => body.replace(/@\[[^\]\s]{1,200}\]/g, TAGGED_PERSON);

/**
 * The record of one grievance for the file (docs/data-model.md, Grievances: export): its fields, the
 * whole thread oldest first, the handling record oldest first with reasons, and its deadlines. Handlers
 * are named, as on the admin routes; the raiser and other employees never are (their replies read
 * Anonymous, and tags in bodies are replaced). One read of the grievance, one Query of its replies and
 * one of its history (both bounded by the grievance's own thread), one BatchGet of handlers.
 */
export async function grievanceRecord(grievanceId: string, now = new Date()) {
  const record = await recordFields(grievanceId, now);
  // The JSON form names what its PDF form cannot print (issue 46): the complete text is here, and
  // a reader knows which letters the document shows as "\u{fffd}".
  return { ...record, unprintedInPdf: await unprintableCharacters(recordLines(record).map((l) => l.text)) };
}

export type GrievanceRecord = Awaited<ReturnType<typeof grievanceRecord>>;
type RecordFields = Awaited<ReturnType<typeof recordFields>>;

async function recordFields(grievanceId: string, now: Date) {
  const g = await loadGrievance(grievanceId);
  const [replies, changes] = await Promise.all([
    GrievanceReply.queryAll({ key: { grievanceId: g.id }, forward: true, consistent: true }),
    listStatusChanges(g.id, { admin: true }),
  ]);
  const thread = await replyViews(replies, '', { admin: true });
  return {
    exportedAt: now.toISOString(),
    grievance: {
      id: g.id,
      subject: g.subject,
      description: g.description,
      category: g.category,
      status: g.status,
      submitterName: ANONYMOUS_NAME,
      createdAt: g.createdAt,
      updatedAt: g.updatedAt,
      resolvedAt: g.resolvedAt ?? null,
      statusNote: g.statusNote ?? null,
      statusNoteAt: g.statusNoteAt ?? null,
      replyCount: thread.length,
    },
    deadlines: deadlinesOf(g, now),
    thread: thread.map((r) => ({
      id: r.id,
      authorRole: r.authorRole,
      authorName: r.author?.name ?? ANONYMOUS_NAME,
      body: untagged(r.body),
      createdAt: r.createdAt,
      editedAt: r.editedAt,
    })),
    handlingRecord: [...changes].reverse().map((c) => ({
      id: c.id,
      fromStatus: c.fromStatus,
      toStatus: c.toStatus,
      reason: c.reason,
      changedByName: c.changedBy?.name ?? c.changedByName,
      createdAt: c.createdAt,
    })),
  };
}

/**
 * The same record as a PDF document, set in an embedded font so every letter of Polish, Czech, Greek,
 * Cyrillic and typographic quotes prints and extracts; a character the font lacks prints as "�" and
 * the document names it (the JSON form always holds the complete text).
 */
export function grievanceRecordPdf(r: GrievanceRecord): Promise<Buffer> {
  return textPdf(`Grievance record ${r.grievance.id}`, recordLines(r), {
    unprintedNote: 'The record in JSON form (Accept: application/json) lists them and holds the complete text.',
  });
}

/** The record's lines as its PDF form sets them. */
function recordLines(r: RecordFields): PdfLine[] {
  const g = r.grievance;
  const d = r.deadlines;
  const deadline = (name: string, x: { dueAt: string; metAt: string | null; state: string }) =>
    `${name}: due ${x.dueAt}, ${x.state}${x.metAt ? ` (${x.metAt})` : ''}`;
  const lines: PdfLine[] = [
    { text: `Grievance record ${g.id}`, heading: true },
    { text: `Exported ${r.exportedAt}` },
    { text: 'Grievance', heading: true },
    { text: `Subject: ${g.subject}` },
    { text: `Category: ${g.category}` },
    { text: `Status: ${g.status}${g.statusNote ? ` (${g.statusNote})` : ''}` },
    { text: `Raised by: ${g.submitterName}` },
    { text: `Raised: ${g.createdAt}` },
    { text: `Resolved: ${g.resolvedAt ?? '-'}` },
    { text: `Description: ${g.description}` },
    { text: 'Deadlines', heading: true },
    ...(d
      ? [{ text: deadline('Acknowledgement', d.acknowledgement) }, { text: deadline('Feedback', d.feedback) }]
      : [{ text: 'None recorded (raised before deadlines were kept).' }]),
    { text: `Thread (${r.thread.length} replies)`, heading: true },
    ...r.thread.flatMap((t) => [
      { text: `${t.createdAt} - ${t.authorName} (${t.authorRole})${t.editedAt ? `, edited ${t.editedAt}` : ''}:` },
      { text: t.body },
    ]),
    { text: 'Handling record', heading: true },
    ...r.handlingRecord.map((c) => ({
      text: `${c.createdAt} - ${c.fromStatus ?? 'raised'} -> ${c.toStatus} by ${c.changedByName}: ${c.reason}`,
    })),
  ];
  return lines;
}

export type ExportFormat = 'json' | 'pdf';

/**
 * The format an `Accept` header asks for: JSON or PDF, by quality, JSON when the header is absent or
 * accepts anything; null when it accepts neither (406).
 */
export function exportFormat(accept: string | undefined): ExportFormat | null {
  if (!accept?.trim()) return 'json';
  const ranges = accept.split(',').map((part) => {
    const [type, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return { type: type.trim(), q: q ? Number(q.slice(2)) : 1 };
  });
  const quality = (format: ExportFormat) => {
    const exact = format === 'json' ? 'application/json' : 'application/pdf';
    const match =
      ranges.find((r) => r.type === exact) ?? ranges.find((r) => r.type === 'application/*' || r.type === '*/*');
    return match && Number.isFinite(match.q) ? match.q : 0;
  };
  const json = quality('json');
  const pdf = quality('pdf');
  if (json <= 0 && pdf <= 0) return null;
  return pdf > json ? 'pdf' : 'json';
}
