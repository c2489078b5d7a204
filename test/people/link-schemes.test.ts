import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { Meeting } from '../../shared/calendar/meetings/entities.ts';
import { db, tableName } from '../../shared/db/client.ts';
import { User } from '../../shared/people/entities.ts';
import { hasAllowedScheme, linkScheme } from '../../shared/util/links.ts';
import { api, newMember, uniq } from '../support/api.ts';

/*
 * "Handle or full URL" fields are rendered as links by clients: a value with a script scheme would run
 * when clicked. Only http(s) URLs and bare handles are accepted.
 */
const HOSTILE = [
  'javascript:alert(document.cookie)',
  'JaVaScRiPt:alert(1)',
  ' javascript:alert(1)',
  '\u0001javascript:alert(1)',
  'java\tscript:alert(1)',
  'java\nscript:alert(1)',
  'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
  'vbscript:msgbox(1)',
];
const FINE = [
  '',
  'alice',
  '@alice',
  'github.com/alice',
  'https://example.com/alice',
  'HTTP://example.com',
  '//cdn.example.com/x',
];
const LINKS = ['photoShare', 'professionalNetwork', 'codeHosting', 'microblog', 'video', 'portfolio'];

const DAY = 24 * 3600_000;
const at = (ms: number) => new Date(Math.floor((Date.now() + ms) / 1000) * 1000).toISOString();
const meeting = (meetLink: string) => ({
  topic: `Sync ${uniq()}`,
  startsAt: at(DAY),
  endsAt: at(DAY + 3600_000),
  internalParticipantIds: [],
  externalEmails: [],
  type: 'internal',
  meetLink,
});

describe('link fields refuse script schemes', () => {
  it('reads the scheme as a browser would', () => {
    for (const v of HOSTILE) expect(hasAllowedScheme(v), v).toBe(false);
    for (const v of FINE) expect(hasAllowedScheme(v), v).toBe(true);
    expect(linkScheme('mailto:a@example.com')).toBe('mailto:');
    expect(hasAllowedScheme('mailto:a@example.com', ['mailto:'])).toBe(true);
  });

  it('profile links: a script scheme is a 400 that saves nothing; handles and http(s) URLs stay valid', async () => {
    const p = await newMember();
    for (const field of LINKS) {
      for (const value of HOSTILE) {
        const res = await api('PATCH', '/users/me/profile', {
          token: p.token,
          body: { [field]: value, title: 'changed' },
        });
        expect(res.status, `${field}=${JSON.stringify(value)}`).toBe(400);
        expect(res.body).toMatchObject({ statusCode: 400, error: expect.any(String) });
        expect(JSON.stringify(res.body.message)).toContain(field);
      }
    }
    const profile = (await api('GET', '/users/me/profile', { token: p.token })).body;
    expect(profile.title).not.toBe('changed');
    const ok = await api('PATCH', '/users/me/profile', {
      token: p.token,
      body: { photoShare: '@alice', codeHosting: 'github.com/alice', portfolio: 'https://alice.example.com' },
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ photoShare: '@alice', codeHosting: 'github.com/alice' });
  });

  it('profile links saved before the rule are shown empty', async () => {
    const p = await newMember();
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: User.key({ id: p.id }),
        UpdateExpression: 'SET video = :v, microblog = :m',
        ExpressionAttributeValues: { ':v': 'javascript:alert(1)', ':m': '@alice' },
      }),
    );
    const profile = (await api('GET', '/users/me/profile', { token: p.token })).body;
    expect(profile.video).toBe('');
    expect(profile.microblog).toBe('@alice');
  });

  it('meetLink: a script scheme is a 400 on create and on change; http(s) links pass', async () => {
    const org = await newMember();
    for (const value of HOSTILE) {
      const res = await api('POST', '/meetings', { token: org.token, body: meeting(value) });
      expect(res.status, JSON.stringify(value)).toBe(400);
    }
    expect((await api('GET', '/meetings', { token: org.token })).body).toEqual([]);
    const m = await api('POST', '/meetings', { token: org.token, body: meeting('https://meet.example.com/x') });
    expect(m.status).toBe(201);
    const changed = await api('PATCH', `/meetings/${m.body.id}`, {
      token: org.token,
      body: { meetLink: 'javascript:alert(1)' },
    });
    expect(changed.status).toBe(400);
    expect((await api('GET', `/meetings/${m.body.id}`, { token: org.token })).body.meetLink).toBe(
      'https://meet.example.com/x',
    );
    // A value stored before the rule is not served.
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: Meeting.key({ id: m.body.id }),
        UpdateExpression: 'SET meetLink = :v',
        ExpressionAttributeValues: { ':v': 'javascript:alert(1)' },
      }),
    );
    expect((await api('GET', `/meetings/${m.body.id}`, { token: org.token })).body.meetLink).toBe('');
  });
});
