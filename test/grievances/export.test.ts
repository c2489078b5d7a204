import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
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

/** The text of every page, as a PDF reader (PDF.js, through unpdf) extracts it: what a reader copies out. */
async function pdfText(bytes: Buffer): Promise<{ pages: number; text: string }> {
  const { totalPages, text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true });
  return { pages: totalPages, text };
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
    // Every letter of this record prints in the PDF form.
    expect(record.unprintedInPdf).toEqual([]);
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

  it('keeps every letter in the PDF: Polish, Czech, Greek, Cyrillic, typographic quotes; names what no glyph covers', async () => {
    const { raiser, other, handler } = await world();
    const g = await raise(raiser, {
      subject: 'Zażółć gęślą jaźń',
      description: 'Καλημέρα — the manager wrote “cytat” on the board; 漢 was there too.',
    });
    await reply(other, g.id, 'Příliš žluťoučký kůň');
    await reply(handler, g.id, 'Привет, we are on it', { admin: true });
    const res = await download(handler.token, `/admin/grievances/${g.id}/export`, 'application/pdf');
    expect([res.status, res.type]).toEqual([200, 'application/pdf']);
    // Lines wrap where the column ends: compared with every line break as a space.
    const text = (await pdfText(res.bytes)).text.replace(/\s+/g, ' ');
    for (const expected of ['Zażółć', 'gęślą', 'jaźń', 'Καλημέρα', '“cytat”', 'Příliš žluťoučký kůň', 'Привет']) {
      expect(text, expected).toContain(expected);
    }
    // The one character Noto Sans has no glyph for prints as U+FFFD, and the document says so.
    expect(text).toContain('on the board; \u{fffd} was there too.');
    expect(text).toMatch(/^Note: one character of this document could not be printed in its font.*: U\+6F22\./);
    expect(text).toContain(
      'The record in JSON form (Accept: application/json) lists them and holds the complete text.',
    );
    for (const person of [raiser, other]) expect(mentions(text, [person.id, person.email, person.name])).toEqual([]);
    // The JSON form holds every character, and names the one the PDF cannot print.
    const json = JSON.parse((await download(handler.token, `/admin/grievances/${g.id}/export`)).bytes.toString('utf8'));
    expect(json.grievance.description).toBe('Καλημέρα — the manager wrote “cytat” on the board; 漢 was there too.');
    expect(json.unprintedInPdf).toEqual(['U+6F22']);
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

describe('export format', () => {
  it('chooses JSON or PDF by Accept and its qualities', () => {
    expect(exportFormat(undefined)).toBe('json');
    expect(exportFormat('application/pdf')).toBe('pdf');
    expect(exportFormat('application/json;q=0.4, application/pdf;q=0.8')).toBe('pdf');
    expect(exportFormat('application/pdf;q=0, application/json')).toBe('json');
    expect(exportFormat('text/html')).toBeNull();
    expect(exportFormat('application/json;q=0')).toBeNull();
  });
});
