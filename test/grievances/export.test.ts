import { decodePDFRawStream, PDFArray, PDFDocument, type PDFRawStream } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { textPdf } from '../../shared/documents/pdf.ts';
import { exportFormat } from '../../shared/grievances/export.ts';
import { api, baseUrl, newMember } from '../support/api.ts';
import { expectClientError, expectStatus, mentions, move, raise, reply, world } from './helpers.ts';

/** The export for the record (shared/grievances/export.ts) and the PDF writer it uses. */
async function download(token: string, path: string, accept?: string) {
  const res = await fetch(`${baseUrl()}/api/v1${path}`, {
    headers: { authorization: `Bearer ${token}`, ...(accept ? { accept } : {}) },
  });
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    bytes: Buffer.from(await res.arrayBuffer()),
  };
}

/** The literal strings a content stream shows (`(…) Tj`), with PDF string escapes undone. */
function shownStrings(content: string): string[] {
  const shown: string[] = [];
  for (const m of content.matchAll(/\(((?:\\[\s\S]|[^\\)])*)\)\s*Tj/g)) {
    shown.push(
      m[1].replace(/\\([nrtbf()\\]|[0-7]{1,3})/g, (_e, c: string) =>
        /^[0-7]/.test(c)
          ? String.fromCharCode(Number.parseInt(c, 8))
          : (({ n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' } as Record<string, string>)[c] ?? c),
      ),
    );
  }
  return shown;
}

/** The text of every page, read through a PDF parser (pdf-lib): the page tree, then each page's content. */
async function pdfText(bytes: Buffer): Promise<{ pages: number; text: string }> {
  const doc = await PDFDocument.load(new Uint8Array(bytes), { throwOnInvalidObject: true, updateMetadata: false });
  const pages = doc.getPages().map((page) => {
    const contents = page.node.Contents();
    const streams = contents instanceof PDFArray ? contents.asArray().map((r) => doc.context.lookup(r)) : [contents];
    return streams
      .flatMap((stream) =>
        shownStrings(Buffer.from(decodePDFRawStream(stream as PDFRawStream).decode()).toString('latin1')),
      )
      .join('\n');
  });
  return { pages: doc.getPageCount(), text: pages.join('\n') };
}

describe('grievance export', () => {
  it('answers the record as JSON: fields, thread, handling record with reasons, deadlines; handlers named only', async () => {
    const { raiser, other, handler } = await world();
    const tagged = await newMember();
    const g = await raise(raiser, { category: 'policy' });
    await reply(raiser, g.id, 'The raiser adds a detail');
    await reply(other, g.id, `A colleague asks @[${tagged.id}] to look`);
    await reply(handler, g.id, 'The team received this', { admin: true });
    await move(handler, g.id, 'in_review', 'Looking into it');

    const res = await download(handler.token, `/admin/grievances/${g.id}/export`, 'application/json');
    expect(res.status).toBe(200);
    expect(res.type).toMatch(/^application\/json/);
    const text = res.bytes.toString('utf8');
    const record = JSON.parse(text);
    expect(record.grievance).toMatchObject({
      id: g.id,
      subject: g.subject,
      description: g.description,
      category: 'policy',
      status: 'in_review',
      submitterName: 'Anonymous',
      replyCount: 3,
    });
    expect(record.thread.map((r: any) => [r.authorRole, r.authorName])).toEqual([
      ['submitter', 'Anonymous'],
      ['employee', 'Anonymous'],
      ['handler', handler.name],
    ]);
    expect(record.thread[1].body).toBe('A colleague asks @[a person] to look');
    expect(record.handlingRecord.map((c: any) => [c.fromStatus, c.toStatus, c.reason, c.changedByName])).toEqual([
      [null, 'open', 'Grievance raised', 'Grievance team'],
      ['open', 'in_review', 'Looking into it', handler.name],
    ]);
    // Acknowledged by the handler's reply, before the move.
    expect(record.deadlines.acknowledgement).toMatchObject({ state: 'met', metAt: record.thread[2].createdAt });
    expect(record.deadlines.feedback.state).toBe('pending');
    for (const person of [raiser, other, tagged]) {
      expect(mentions(text, [person.id, person.email, person.name]), person.name).toEqual([]);
    }
    // No Accept, or any type: JSON as well.
    for (const accept of [undefined, '*/*', 'application/*;q=0.5, text/html']) {
      const again = await download(handler.token, `/admin/grievances/${g.id}/export`, accept);
      expect([again.status, again.type.split(';')[0]], String(accept)).toEqual([200, 'application/json']);
    }
  });

  it('answers a PDF document that a PDF reader opens, with the record as text', async () => {
    const { raiser, other, handler } = await world();
    const g = await raise(raiser);
    await reply(other, g.id, 'A colleague adds a thought');
    await reply(handler, g.id, 'Handled by the team', { admin: true });
    await move(handler, g.id, 'resolved', 'Settled with the manager');
    const res = await download(handler.token, `/admin/grievances/${g.id}/export`, 'application/pdf');
    expect(res.status).toBe(200);
    expect(res.type).toBe('application/pdf');
    expect(res.bytes.subarray(0, 8).toString('latin1')).toBe('%PDF-1.4');
    expect(res.bytes.toString('latin1')).toMatch(/xref\n0 \d+\n[\s\S]*trailer[\s\S]*startxref\n\d+\n%%EOF\n$/);
    const { text } = await pdfText(res.bytes);
    for (const expected of [
      g.subject,
      'A colleague adds a thought',
      'Settled with the manager',
      handler.name,
      'Anonymous',
    ]) {
      expect(text, expected).toContain(expected);
    }
    for (const person of [raiser, other]) expect(mentions(text, [person.id, person.email, person.name])).toEqual([]);
  });

  it('answers 406 for other types, 404 for an unknown grievance, 403 for a member', async () => {
    const { raiser, other, handler } = await world();
    const g = await raise(raiser);
    const refused = await api('GET', `/admin/grievances/${g.id}/export`, {
      token: handler.token,
      headers: { accept: 'text/html' },
    });
    expectClientError(refused, '406');
    expect(refused.status).toBe(406);
    expect((await api('GET', '/admin/grievances/0000000000000000000000/export', { token: handler.token })).status).toBe(
      404,
    );
    expect((await api('GET', `/admin/grievances/${g.id}/export`, { token: other.token })).status).toBe(403);
    expectStatus(await api('GET', `/admin/grievances/${g.id}`, { token: handler.token }), 200);
  });
});

describe('plain-text PDF writer', () => {
  it('writes cross-reference offsets that point at their objects, wraps long text onto further pages', async () => {
    const long = Array.from({ length: 200 }, (_, i) => ({
      text: `Line ${i} ${'word '.repeat(30)}end`,
    }));
    const bytes = textPdf('A title with é and 漢', [
      { text: 'Heading', heading: true },
      { text: 'Escapes: (parentheses) and \\ backslash' },
      ...long,
    ]);
    const raw = bytes.toString('latin1');
    const xrefAt = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(raw)![1]);
    expect(raw.slice(xrefAt, xrefAt + 4)).toBe('xref');
    const offsets = [...raw.slice(xrefAt).matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]));
    expect(offsets.length).toBeGreaterThan(5);
    for (const [i, o] of offsets.entries()) expect(raw.slice(o, o + `${i + 1} 0 obj`.length)).toBe(`${i + 1} 0 obj`);
    const { pages, text } = await pdfText(bytes);
    expect(pages).toBeGreaterThan(1);
    expect(text).toContain('Line 199');
    expect(text).toContain('Escapes: (parentheses) and \\ backslash');
    expect(text).toContain('Heading');
    // Outside Latin-1 prints as "?"; Latin-1 stays.
    expect(raw).toContain('/Title (A title with \xe9 and ?)');
  });

  it('chooses JSON or PDF by Accept and its qualities', () => {
    expect(exportFormat(undefined)).toBe('json');
    expect(exportFormat('application/pdf')).toBe('pdf');
    expect(exportFormat('application/json;q=0.4, application/pdf;q=0.8')).toBe('pdf');
    expect(exportFormat('application/pdf;q=0, application/json')).toBe('json');
    expect(exportFormat('text/html')).toBeNull();
    expect(exportFormat('application/json;q=0')).toBeNull();
  });
});
