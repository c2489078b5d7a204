import { describe, expect, it } from 'vitest';
import { api, newMember } from '../support/api.ts';
import {
  allReplies,
  changes,
  detail,
  expectClientError,
  expectStatus,
  raise,
  reply,
  unread,
  world,
} from './helpers.ts';

/** Bad input gets a 4xx in the common error body and changes nothing. */
describe('grievances: bad input', () => {
  it('refuses every malformed request with a 4xx and leaves the grievance, its thread and the counters as they were', async () => {
    const { raiser, other, handler } = await world();
    const g = await raise(raiser);
    const mine = await reply(other, g.id, 'An honest reply');
    const elsewhere = await raise(raiser);
    const otherThread = await reply(other, elsewhere.id, 'reply 1');
    await reply(other, elsewhere.id, 'reply 2');
    const foreignCursor = expectStatus(
      await api('GET', `/grievances/${elsewhere.id}/replies?limit=1`, { token: other.token }),
      200,
    ).nextCursor;
    const boardCursor = expectStatus(await api('GET', '/grievances?limit=1', { token: other.token }), 200).nextCursor;
    const tampered = `${boardCursor.slice(0, -4)}${boardCursor.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`;

    const snapshot = async () => ({
      grievance: await detail(other, g.id),
      replies: await allReplies(other, g.id),
      changes: await changes(other, g.id),
      otherUnread: await unread(other),
      total: expectStatus(await api('GET', '/grievances?limit=1', { token: other.token }), 200).total,
    });
    const before = await snapshot();
    const R = `/grievances/${g.id}/replies`;
    const bad: [string, string, { token: string; body?: unknown; raw?: string; headers?: Record<string, string> }][] = [
      // raise: oversized, wrong types, unknown fields, not JSON
      [
        'POST',
        '/grievances',
        { token: other.token, body: { subject: 's'.repeat(151), description: 'd'.repeat(30), category: 'other' } },
      ],
      [
        'POST',
        '/grievances',
        { token: other.token, body: { subject: 'Fine subject', description: 'd'.repeat(5001), category: 'other' } },
      ],
      [
        'POST',
        '/grievances',
        { token: other.token, body: { subject: 123, description: 'd'.repeat(30), category: 'other' } },
      ],
      [
        'POST',
        '/grievances',
        { token: other.token, body: { subject: 'Fine subject', description: 'd'.repeat(30), category: 7 } },
      ],
      [
        'POST',
        '/grievances',
        {
          token: other.token,
          body: { subject: 'Fine subject', description: 'd'.repeat(30), category: 'other', anonymous: 'yes' },
        },
      ],
      [
        'POST',
        '/grievances',
        {
          token: other.token,
          body: { subject: 'Fine subject', description: 'd'.repeat(30), category: 'other', submittedById: other.id },
        },
      ],
      [
        'POST',
        '/grievances',
        { token: other.token, body: { subject: '     ', description: 'd'.repeat(30), category: 'other' } },
      ],
      ['POST', '/grievances', { token: other.token, body: ['subject'] }],
      [
        'POST',
        '/grievances',
        { token: other.token, raw: '{"subject":', headers: { 'content-type': 'application/json' } },
      ],
      // board: unknown and repeated parameters, bad values, forged cursors
      ['GET', '/grievances?mine=true', { token: other.token }],
      ['GET', '/grievances?status=open&status=closed', { token: other.token }],
      ['GET', '/grievances?limit=0', { token: other.token }],
      ['GET', '/grievances?sort=newest', { token: other.token }],
      ['GET', '/grievances?cursor=not-a-cursor', { token: other.token }],
      ['GET', `/grievances?cursor=${tampered}`, { token: other.token }],
      ['GET', `/grievances?status=open&cursor=${boardCursor}`, { token: other.token }],
      ['GET', `/admin/grievances?cursor=${foreignCursor}`, { token: handler.token }],
      ['GET', `${R}?cursor=${foreignCursor}`, { token: other.token }],
      ['GET', `${R}?anonymous=true`, { token: other.token }],
      // replies: per-reply anonymity, role, sizes, types, unknown ids, foreign reply ids
      ['POST', R, { token: other.token, body: { body: 'hello', anonymous: true } }],
      ['POST', R, { token: other.token, body: { body: 'hello', authorRole: 'handler' } }],
      ['POST', R, { token: other.token, body: { body: 'b'.repeat(5001) } }],
      ['POST', R, { token: other.token, body: { body: 42 } }],
      ['POST', R, { token: other.token, body: { body: '   ' } }],
      ['POST', R, { token: other.token, body: { body: 'hello', attachments: [] } }],
      ['POST', `/admin${R}`, { token: other.token, body: { body: 'pretending to be the team' } }],
      ['PATCH', `${R}/${mine.id}`, { token: other.token, body: { body: 'edit', authorRole: 'handler' } }],
      ['PATCH', `${R}/${mine.id}`, { token: raiser.token, body: { body: 'not my reply' } }],
      ['DELETE', `${R}/${mine.id}`, { token: raiser.token }],
      ['PATCH', `${R}/${otherThread.id}`, { token: other.token, body: { body: 'a reply of another grievance' } }],
      ['DELETE', `${R}/${otherThread.id}`, { token: other.token }],
      ['PATCH', `${R}/01m7zzzzzzzzzzzzzzzzzz`, { token: other.token, body: { body: 'unknown reply' } }],
      ['POST', `/grievances/${'x'.repeat(3000)}/replies`, { token: other.token, body: { body: 'very long id' } }],
      ['GET', `/grievances/${'x'.repeat(3000)}`, { token: other.token }],
      ['POST', `/grievances/${'x'.repeat(3000)}/read`, { token: other.token }],
      ['GET', `/grievances/%00%27/status-changes`, { token: other.token }],
      // reads and moves
      ['POST', `/grievances/${g.id}/read`, { token: other.token, body: { at: 'now' } }],
      [
        'PATCH',
        `/admin/grievances/${g.id}/status`,
        { token: handler.token, body: { status: 'archived', reason: 'Valid reason' } },
      ],
      [
        'PATCH',
        `/admin/grievances/${g.id}/status`,
        { token: handler.token, body: { status: 'closed', reason: 12345 } },
      ],
      [
        'PATCH',
        `/admin/grievances/${g.id}/status`,
        { token: handler.token, body: { status: 'closed', reason: 'Valid reason', changedBy: handler.id } },
      ],
      [
        'PATCH',
        `/admin/grievances/${g.id}/status`,
        { token: other.token, body: { status: 'closed', reason: 'A member tries' } },
      ],
      ['GET', `/admin/grievances/${g.id}/submitter`, { token: handler.token }],
      ['GET', `/admin/grievances/${g.id}/submitter`, { token: other.token }],
    ];
    for (const [method, path, opts] of bad)
      expectClientError(await api(method, path, opts), `${method} ${path.slice(0, 80)}`);
    expect(await snapshot()).toEqual(before);
  });

  it('answers 404 for ids that name nothing and 403 before the lookup for members on handler routes', async () => {
    const m = await newMember();
    const x = '01m7zzzzzzzzzzzzzzzzzz';
    for (const path of [
      `/grievances/${x}`,
      `/grievances/${x}/replies`,
      `/grievances/${x}/status-changes`,
      '/grievances/not-an-id',
    ]) {
      expect((await api('GET', path, { token: m.token })).status, path).toBe(404);
    }
    expect((await api('POST', `/grievances/${x}/read`, { token: m.token })).status).toBe(404);
    expect((await api('GET', `/admin/grievances/${x}`, { token: m.token })).status).toBe(403);
  });
});
