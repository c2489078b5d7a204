/**
 * The demo company: who works there and what they did. Deterministic (the same --people gives the same
 * people), so a second run finds the people and teams of the first.
 */
type Res = { status: number; body: any; headers: Headers };
type Call = (method: string, path: string, opts?: { token?: string; body?: unknown; form?: FormData }) => Promise<Res>;

export interface SeedOptions {
  people: number;
  password: string;
  admin: { email: string; password: string };
  call: Call;
  avatar: (initials: string, hue: number) => Promise<Buffer>;
  progress: (done: number, total: number, label: string) => void;
}

/** The demo audiences: engineering in Berlin, and product and design everywhere. */
const DEMO_AUDIENCES = [
  { name: 'Engineering in Berlin', rule: { all: [{ department: 'engineering' }, { location: 'Berlin' }] } },
  { name: 'Product and design', rule: { any: [{ department: 'product' }, { department: 'design' }] } },
];

/** The demo audiences' ids: found by name when a previous run made them, else created. */
async function seedAudiences(
  call: Call,
  token: string,
  expect: (res: Res, ok: number[], what: string) => Res,
): Promise<string[]> {
  const listed = expect(await call('GET', '/admin/audiences?limit=50', { token }), [200], 'audiences');
  const byName = new Map<string, string>(
    ((listed.body?.items ?? []) as { id: string; name: string }[]).map((a) => [a.name, a.id]),
  );
  const ids: string[] = [];
  for (const a of DEMO_AUDIENCES) {
    const found = byName.get(a.name);
    ids.push(
      found ?? expect(await call('POST', '/admin/audiences', { token, body: a }), [201], `audience ${a.name}`).body?.id,
    );
  }
  return ids;
}

/** Demo names, also used by the directory bench to seed believable people. */
export const FIRST_NAMES = [
  'Ada',
  'Grace',
  'Linus',
  'Margaret',
  'Alan',
  'Katherine',
  'Dennis',
  'Barbara',
  'Ken',
  'Radia',
  'Tim',
  'Frances',
  'Edsger',
  'Hedy',
  'John',
  'Shafi',
  'Donald',
  'Adele',
  'Guido',
  'Anita',
  'Bjarne',
  'Joan',
  'Brian',
  'Evelyn',
  'Niklaus',
  'Mary',
  'Leslie',
  'Sophie',
  'James',
  'Lynn',
];
export const LAST_NAMES = [
  'Lovelace',
  'Hopper',
  'Torvalds',
  'Hamilton',
  'Turing',
  'Johnson',
  'Ritchie',
  'Liskov',
  'Thompson',
  'Perlman',
  'Berners-Lee',
  'Allen',
  'Dijkstra',
  'Lamarr',
  'McCarthy',
  'Goldwasser',
  'Knuth',
  'Goldberg',
  'van Rossum',
  'Borg',
  'Stroustrup',
  'Clarke',
  'Kernighan',
  'Berezin',
  'Wirth',
  'Keller',
  'Lamport',
  'Wilson',
  'Gosling',
  'Conway',
];
const TITLES = [
  'Software Engineer',
  'Senior Software Engineer',
  'Product Manager',
  'Product Designer',
  'Data Analyst',
  'People Partner',
  'Account Executive',
  'Marketing Lead',
  'Finance Analyst',
  'Support Specialist',
  'Site Reliability Engineer',
  'QA Engineer',
];
const DEPARTMENTS = [
  'engineering',
  'engineering',
  'product',
  'design',
  'engineering',
  'hr',
  'business_development',
  'digital_marketing',
  'finance',
  'support',
  'operations',
  'engineering',
];
const LOCATIONS = ['Berlin', 'Lisbon', 'Remote', 'London', 'Toronto', 'Bangalore'];
const SKILLS = [
  'TypeScript',
  'AWS',
  'DynamoDB',
  'React',
  'Figma',
  'SQL',
  'Kubernetes',
  'Go',
  'Python',
  'Negotiation',
  'Public speaking',
  'Accessibility',
  'Copywriting',
  'Excel',
];
const TEAMS: [string, string][] = [
  ['Platform', 'blue'],
  ['Growth', 'emerald'],
  ['Design Studio', 'violet'],
  ['People Ops', 'amber'],
  ['Customer Care', 'rose'],
  ['Finance', 'slate'],
];
const POSTS = [
  'Shipped the new onboarding flow today. Thanks everyone who reviewed it! #shipping #onboarding',
  'Lunch-and-learn on Thursday: how our deploy pipeline works. Bring questions. #learning',
  'We crossed 10,000 weekly active users this morning 🎉 #milestone',
  'Reminder: the office closes early on Friday for the summer party. #office',
  'Looking for volunteers to mentor our interns this autumn. #mentoring',
  'Post-mortem notes from last week are in the wiki. Short version: add alarms first. #reliability',
  'The coffee machine on floor 2 is fixed. Rejoice. #office',
  'Customer feedback this month is the best we have had all year. #customers',
];
const GRIEVANCES: [string, string, string][] = [
  [
    'Meeting-free focus time is ignored',
    'Several teams keep booking meetings in the agreed focus blocks on Wednesday mornings, which makes deep work impossible.',
    'workload',
  ],
  [
    'Broken lift on the third floor',
    'The lift has been out of order for two weeks and colleagues with reduced mobility cannot reach the meeting rooms.',
    'facilities',
  ],
  [
    'Unclear on-call compensation',
    'The on-call allowance is not described anywhere and seems to differ between teams doing the same rotation.',
    'compensation',
  ],
  [
    'Inappropriate jokes in the team channel',
    'Some jokes in a team channel target colleagues’ backgrounds. It makes people uncomfortable to speak up there.',
    'harassment',
  ],
  [
    'Parking policy feels unfair',
    'The new parking policy gives all spaces to managers, while people with long commutes have no option left.',
    'policy',
  ],
  [
    'Ventilation in the server room corridor',
    'The corridor next to the server room gets very hot in the afternoon and the ventilation seems to be off.',
    'workplace_safety',
  ],
];

const today = () => new Date().toISOString().slice(0, 10);
const daysFromNow = (d: number, hour = 10) => {
  const t = new Date(Date.now() + d * 86_400_000);
  t.setUTCHours(hour, 0, 0, 0);
  return t.toISOString();
};

/** The demo company's i-th person (from 0): their name and address (also the demo identity provider's people, infra/local/idp.ts). */
export const demoPerson = (i: number) => ({
  name: `${FIRST_NAMES[i % FIRST_NAMES.length]} ${LAST_NAMES[(i * 7) % LAST_NAMES.length]}${i >= FIRST_NAMES.length ? ` ${Math.floor(i / FIRST_NAMES.length) + 1}` : ''}`,
  email: `demo-${i + 1}@example.com`,
});

export async function createDemoCompany(o: SeedOptions): Promise<string[]> {
  const { call } = o;
  const warnings: string[] = [];
  const expect = (res: Res, ok: number[], what: string) => {
    if (!ok.includes(res.status)) warnings.push(`${what}: ${res.status} ${JSON.stringify(res.body).slice(0, 160)}`);
    return res;
  };
  const signIn = async (email: string, password: string) => {
    const res = await call('POST', '/auth/sign-in/email', { body: { email, password } });
    if (res.status !== 200) throw new Error(`cannot sign in as ${email}: ${res.status} ${JSON.stringify(res.body)}`);
    return { token: res.headers.get('set-auth-token')!, id: res.body.user.id as string };
  };
  const admin = await signIn(o.admin.email, o.admin.password);

  // Teams (reused when they exist).
  const existingTeams = ((await call('GET', '/teams', { token: admin.token })).body ?? []) as {
    id: string;
    name: string;
  }[];
  const teamIds: string[] = [];
  for (const [name, color] of TEAMS) {
    const found = existingTeams.find((t) => t.name.toLowerCase() === name.toLowerCase());
    if (found) teamIds.push(found.id);
    else {
      const res = expect(
        await call('POST', '/teams', { token: admin.token, body: { name, color } }),
        [201],
        `team ${name}`,
      );
      if (res.status === 201) teamIds.push(res.body.id);
    }
  }

  // People: the first few manage the rest.
  const members = ((await call('GET', '/admin/members', { token: admin.token })).body ?? []) as {
    id: string;
    email: string;
  }[];
  const byEmail = new Map(members.map((m) => [m.email, m.id]));
  const people: { id: string; name: string; email: string; token?: string }[] = [];
  const managers = Math.max(2, Math.round(o.people / 8));
  const total = o.people;
  for (let i = 0; i < total; i++) {
    const { name, email } = demoPerson(i);
    let id = byEmail.get(email);
    if (!id) {
      const res = expect(
        await call('POST', '/admin/members', {
          token: admin.token,
          body: {
            name,
            email,
            password: o.password,
            title: TITLES[i % TITLES.length],
            department: DEPARTMENTS[i % DEPARTMENTS.length],
            teamId: teamIds.length ? teamIds[i % teamIds.length] : undefined,
            managerId: i >= managers && people.length ? people[i % managers].id : undefined,
            role: i === 0 ? 'super_admin' : undefined,
          },
        }),
        [201],
        `member ${email}`,
      );
      id = res.body?.id;
    }
    if (!id) continue;
    people.push({ id, name, email });
    const birthday =
      i % 17 === 3
        ? `1990-${today().slice(5)}`
        : `19${80 + (i % 20)}-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 27) + 1).padStart(2, '0')}`;
    expect(
      await call('PATCH', `/people/${id}/profile`, {
        token: admin.token,
        body: {
          location: LOCATIONS[i % LOCATIONS.length],
          bio: `${TITLES[i % TITLES.length]} who enjoys ${SKILLS[(i + 3) % SKILLS.length].toLowerCase()} and good documentation.`,
          currentWork: `Working on the ${['billing', 'search', 'mobile app', 'onboarding', 'reporting'][i % 5]} project.`,
          skills: [SKILLS[i % SKILLS.length], SKILLS[(i + 5) % SKILLS.length]],
          hobbies: [['climbing', 'chess', 'baking', 'running', 'photography'][i % 5]],
          dateOfBirth: birthday,
          joinedOn: `20${15 + (i % 10)}-0${(i % 9) + 1}-15`,
        },
      }),
      [200],
      `profile ${email}`,
    );
    const initials = name
      .split(' ')
      .map((w) => w[0])
      .slice(0, 2)
      .join('');
    const form = new FormData();
    form.append(
      'file',
      new Blob([new Uint8Array(await o.avatar(initials, (i * 47) % 360))], { type: 'image/png' }),
      'avatar.png',
    );
    expect(await call('POST', `/people/${id}/avatar`, { token: admin.token, form }), [201], `avatar ${email}`);
    o.progress(i + 1, total, 'people and profiles');
  }
  for (const p of people) p.token = (await signIn(p.email, o.password)).token;
  const pick = (n: number) => people[n % people.length];

  // The feed: posts, reactions, comments, polls, recognitions.
  const steps = Math.min(people.length, 40);
  const postIds: string[] = [];
  for (let i = 0; i < steps; i++) {
    const author = pick(i * 3);
    const body: Record<string, unknown> = { content: `${POSTS[i % POSTS.length]} @[${pick(i + 1).id}]` };
    if (i % 7 === 2)
      body.poll = {
        question: 'Where should the next offsite be?',
        options: ['Mountains', 'Seaside', 'City'],
        closesAt: daysFromNow(3),
      };
    if (i % 6 === 4)
      body.recognition = {
        recipientId: pick(i + 2).id,
        category: 'teamwork',
        message: 'Thanks for jumping in on the release.',
      };
    const res = expect(await call('POST', '/posts', { token: author.token, body }), [201], 'post');
    if (res.status !== 201) continue;
    postIds.push(res.body.id);
    for (let r = 1; r <= 4; r++) {
      const reaction = ['like', 'celebrate', 'love', 'insightful', 'funny', 'support'][(i + r) % 6];
      expect(
        await call('POST', `/posts/${res.body.id}/upvote`, { token: pick(i * 3 + r).token, body: { reaction } }),
        [200],
        'reaction',
      );
    }
    const c = expect(
      await call('POST', `/posts/${res.body.id}/comments`, {
        token: pick(i + 5).token,
        body: { content: 'Great news, thank you!' },
      }),
      [201],
      'comment',
    );
    if (c.status === 201)
      expect(
        await call('POST', `/posts/${res.body.id}/comments`, {
          token: author.token,
          body: { content: 'Thanks!', parentId: c.body.id },
        }),
        [201],
        'reply',
      );
    if (body.poll && res.body.poll?.options?.[0]) {
      for (let v = 1; v <= 3; v++)
        expect(
          await call('POST', `/posts/${res.body.id}/poll/vote`, {
            token: pick(i + v).token,
            body: { optionId: res.body.poll.options[v % 3].id },
          }),
          [200],
          'vote',
        );
    }
    o.progress(i + 1, steps, 'posts and reactions');
  }
  expect(
    await call('POST', '/posts', {
      token: admin.token,
      body: { content: 'Welcome to the new intranet! #announcement', isAnnouncement: true },
    }),
    [201],
    'announcement',
  );

  // Two audiences (docs/audiences.md), reused by name on a second run, and a must-read for the first.
  const audienceIds = await seedAudiences(call, admin.token, expect);
  if (audienceIds[0])
    expect(
      await call('POST', '/posts', {
        token: admin.token,
        body: {
          content: 'Berlin engineers: the office network changes on Monday. Please read and confirm.',
          isAnnouncement: true,
          acknowledgement: { required: true },
          audience: { id: audienceIds[0] },
        },
      }),
      [201],
      'targeted must-read',
    );

  // Calendar and HR.
  const calendarSteps = 6;
  for (let i = 0; i < calendarSteps; i++) {
    const owner = pick(i * 5);
    expect(
      await call('POST', '/events', {
        token: owner.token,
        body: {
          title: ['All hands', 'Summer party', 'Hack day', 'Town hall', 'Book club', 'Security training'][i],
          startsAt: daysFromNow(i + 1, 15),
          endsAt: daysFromNow(i + 1, 17),
          location: LOCATIONS[i % LOCATIONS.length],
        },
      }),
      [201],
      'event',
    );
    expect(
      await call('POST', '/meetings', {
        token: owner.token,
        body: {
          topic: ['Sprint planning', 'Design review', 'Customer call', 'Quarterly goals', '1:1', 'Incident review'][i],
          description: 'Agenda in the shared doc.',
          startsAt: daysFromNow(i + 1, 9),
          endsAt: daysFromNow(i + 1, 10),
          internalParticipantIds: [pick(i * 5 + 1).id, pick(i * 5 + 2).id],
          externalEmails: i === 2 ? ['client@example.org'] : [],
          type: ['project', 'internal', 'client', 'general', 'internal', 'project'][i],
          meetLink: 'https://meet.example.com/demo',
        },
      }),
      [201],
      'meeting',
    );
    o.progress(i + 1, calendarSteps, 'events and meetings');
  }
  for (let i = 0; i < Math.min(people.length, 25); i++)
    expect(await call('POST', '/attendance/check-in', { token: pick(i).token }), [201, 409], 'check-in');
  for (let i = 0; i < 6; i++) {
    const requester = pick(managers + i);
    const context = await call('GET', '/leave/context', { token: requester.token });
    const manager = context.body?.managers?.[0]?.id;
    if (manager) {
      expect(
        await call('POST', '/leave/requests', {
          token: requester.token,
          body: {
            leaveType: ['Vacation', 'Sick leave', 'Parental leave'][i % 3],
            fromDate: daysFromNow(10 + i).slice(0, 10),
            toDate: daysFromNow(12 + i).slice(0, 10),
            reason: 'Planned time off.',
            selectedManagerId: manager,
          },
        }),
        [201],
        'leave',
      );
    }
  }

  // Grievances in every status.
  const moves: Record<string, string[]> = {
    open: [],
    in_review: ['in_review'],
    resolved: ['in_review', 'resolved'],
    closed: ['closed'],
  };
  const statuses = Object.keys(moves);
  for (let i = 0; i < GRIEVANCES.length; i++) {
    const [subject, description, category] = GRIEVANCES[i];
    const g = expect(
      await call('POST', '/grievances', { token: pick(i * 4 + 1).token, body: { subject, description, category } }),
      [201],
      'grievance',
    );
    if (g.status !== 201) continue;
    expect(
      await call('POST', `/grievances/${g.body.id}/replies`, {
        token: pick(i * 4 + 2).token,
        body: { body: 'This affects our team too.' },
      }),
      [201],
      'grievance reply',
    );
    for (const to of moves[statuses[i % statuses.length]]) {
      expect(
        await call('PATCH', `/admin/grievances/${g.body.id}/status`, {
          token: admin.token,
          body: {
            status: to,
            reason: to === 'in_review' ? 'We are looking into it.' : 'Handled with the teams involved.',
          },
        }),
        [200],
        'grievance status',
      );
    }
    o.progress(i + 1, GRIEVANCES.length, 'grievances');
  }

  const birthdays = people.filter((_, i) => i % 17 === 3).length;
  return [
    `${people.length} people in ${teamIds.length} teams (${managers} managers), ${postIds.length} posts, ${calendarSteps} events and meetings, ${GRIEVANCES.length} grievances, ${birthdays} birthday(s) today.`,
    `Sign in as the super admin: ${o.admin.email} / ${o.admin.password}`,
    `A second super admin: ${people[0]?.email} / ${o.password}`,
    `A manager: ${people[1]?.email} / ${o.password}`,
    `A member: ${people[managers]?.email} / ${o.password}`,
    ...(warnings.length ? [`${warnings.length} step(s) were refused (first: ${warnings[0]})`] : []),
  ];
}
