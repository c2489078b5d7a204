import { describe, expect, it } from 'vitest';
import { withoutOwnTokens } from '../../shared/grievances/mentions.ts';
import { api, newMember } from '../support/api.ts';
import { allReplies, changes, detail, expectClientError, expectStatus, raise, reply, world } from './helpers.ts';

/*
 * `mentions` never lists a reply's author, so a token of the author's own left in the text would be
 * the one token nobody resolves: it would name the author of an anonymous reply or grievance.
 */
const tag = (p: { id: string }) => `@[${p.id}]`;

describe('grievances: the author’s own @[id] tokens are never stored', () => {
  it('removes them from a reply on create and on edit, keeping every other token', async () => {
    const { raiser, other } = await world();
    const c = await newMember();
    const g = await raise(raiser);
    const r = await reply(other, g.id, `Me ${tag(other)} and ${tag(c)}`);
    expect(r.body).not.toContain(other.id);
    expect(r.body).toContain(tag(c));
    expect(r.mentions.map((m: { id: string }) => m.id)).toEqual([c.id]);
    const seen = (await allReplies(c, g.id)).find((x) => x.id === r.id);
    expect(seen.body).toBe(r.body);
    const adminSeen = (await allReplies(raiser, g.id)).find((x) => x.id === r.id);
    expect(adminSeen.body).not.toContain(other.id);

    const edited = expectStatus(
      await api('PATCH', `/grievances/${g.id}/replies/${r.id}`, {
        token: other.token,
        body: { body: `Again ${tag(other)}${tag(c)} ${tag(other)}` },
      }),
      200,
      'edit',
    );
    expect(edited.body).toBe(`Again ${tag(c)} `);
    expect((await allReplies(c, g.id)).find((x) => x.id === r.id).body).toBe(`Again ${tag(c)} `);

    const own = await reply(raiser, g.id, `Raiser here ${tag(raiser)}`);
    expect(own.body).toBe('Raiser here ');
  });

  it('removes a token that only appears once another is taken out', async () => {
    expect(withoutOwnTokens('x @@[me][me]] y', 'me')).toBe('x ] y');
    expect(withoutOwnTokens('@[me] @[me2] @[m] @[me', 'me')).toBe(' @[me2] @[m] @[me');
    const { raiser, other } = await world();
    const g = await raise(raiser);
    const r = await reply(other, g.id, `x @@[${other.id}][${other.id}] y`);
    expect(r.body).toBe('x  y');
  });

  it('refuses a reply that is nothing but the author’s own tokens, writing nothing', async () => {
    const { raiser, other } = await world();
    const g = await raise(raiser);
    const res = await api('POST', `/grievances/${g.id}/replies`, {
      token: other.token,
      body: { body: ` ${tag(other)} ${tag(other)} ` },
    });
    expectClientError(res, 'only own tokens');
    expect(res.status).toBe(400);
    expect(await allReplies(raiser, g.id)).toEqual([]);
    expect((await detail(raiser, g.id)).replyCount).toBe(0);
    const r = await reply(other, g.id, 'keep me');
    const edit = await api('PATCH', `/grievances/${g.id}/replies/${r.id}`, {
      token: other.token,
      body: { body: tag(other) },
    });
    expect(edit.status).toBe(400);
    expect((await allReplies(raiser, g.id)).find((x) => x.id === r.id).body).toBe('keep me');
  });

  it('removes the raiser’s own tokens from the grievance and a handler’s from a status reason', async () => {
    const { raiser, handler } = await world();
    const g = await raise(raiser, {
      subject: `About ${tag(raiser)} the kitchen`,
      description: `${tag(raiser)} The kitchen has been closed for three weeks now.`,
    });
    expect(g.subject).toBe('About  the kitchen');
    expect(g.description).toBe(' The kitchen has been closed for three weeks now.');
    expect(JSON.stringify(await detail(handler, g.id))).not.toContain(raiser.id);
    // Too short once the token is gone: refused like a short description.
    const short = await api('POST', '/grievances', {
      token: raiser.token,
      body: { subject: 'Short one', description: `${tag(raiser)} too short`, category: 'other' },
    });
    expect(short.status).toBe(400);

    expectStatus(
      await api('PATCH', `/admin/grievances/${g.id}/status`, {
        token: handler.token,
        body: { status: 'in_review', reason: `Taken by ${tag(handler)}` },
      }),
      200,
      'move',
    );
    const entries = await changes(raiser, g.id);
    expect(JSON.stringify(entries)).not.toContain(handler.id);
    expect(entries.find((e: { toStatus: string }) => e.toStatus === 'in_review').reason).toBe('Taken by ');
  });
});
