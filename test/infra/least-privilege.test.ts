import { beforeAll, describe, expect, it } from 'vitest';
import {
  leadingKeysCondition,
  routeFunctionAccess,
  TABLE_WRITE_ACTIONS,
  writableKeys,
} from '../../shared/api/access-policy.ts';
import { schedules, streamConsumers } from '../../shared/api/background.ts';
import { handlerFile } from '../../shared/api/route-def.ts';
import { createEventRoute } from '../../shared/api/routes/events.ts';
import { createMeetingRoute } from '../../shared/api/routes/meetings.ts';
import { type Resource, resourcesOf, SYNTH_TIMEOUT, type Synthesized, synthesize } from './synth.ts';

/**
 * The roles that may still write anywhere in the table (Put/Update/Delete/BatchWrite on the table
 * without a `dynamodb:LeadingKeys` condition). docs/least-privilege.md lists why
 * each area's still do. The count is exact: a new one fails this test, and so does narrowing one
 * until the count here and in docs/least-privilege.md is lowered with it.
 */
const TABLE_WIDE_WRITERS_LIMIT = 42;
/** IAM's limit on a role's inline policies (their total size, whitespace not counted). */
const INLINE_POLICY_MAX_CHARS = 10_240;

let s: Synthesized;
beforeAll(async () => {
  s = await synthesize({}, { cfnValidation: false });
}, SYNTH_TIMEOUT);

const statementsOf = (role: Resource): any[] =>
  (role.Properties?.Policies ?? []).flatMap((p: any) => p.PolicyDocument.Statement);
const actionsOf = (st: any): string[] => (Array.isArray(st.Action) ? st.Action : [st.Action]);
/** A statement on the table itself (not an index) allowing one of the write actions. */
const writesTable = (st: any) => {
  const resources = JSON.stringify(st.Resource);
  return (
    st.Effect === 'Allow' &&
    actionsOf(st).some((a) => TABLE_WRITE_ACTIONS.includes(a)) &&
    resources.includes(':table/') &&
    !resources.includes('/index/')
  );
};

const roles = (): [string, Resource][] =>
  [...s.templates].flatMap(([stack, t]) =>
    resourcesOf(t, 'AWS::IAM::Role').map(([id, role]) => [`${stack}/${id}`, role] as [string, Resource]),
  );

/** Roles (stack/logical id) with an unconditioned table-wide write. */
const tableWideWriters = (): string[] =>
  roles()
    .filter(([, role]) => statementsOf(role).some((st) => writesTable(st) && !st.Condition))
    .map(([name]) => name);

/** The role that runs a handler module (ServiceFunction describes its role by it). */
const roleOf = (handler: string): Resource => {
  const found = roles().filter(([, role]) => role.Properties?.Description === `Runs ${handler}`);
  expect(found, handler).toHaveLength(1);
  return found[0][1];
};

describe('least privilege on the table', () => {
  it(`leaves exactly ${TABLE_WIDE_WRITERS_LIMIT} roles with unconditioned table-wide writes`, () => {
    const writers = tableWideWriters();
    expect(writers.length, writers.join('\n')).toBe(TABLE_WIDE_WRITERS_LIMIT);
    // Read-only session routes hold their session refresh only on session items.
    expect(writers.length).toBeGreaterThan(0);
  });

  it.each([
    ['create-event', createEventRoute],
    ['create-meeting', createMeetingRoute],
  ])('grants the %s route its writes on its declared partitions only', (_, route) => {
    const expected = writableKeys(routeFunctionAccess(route))!;
    expect(expected).toEqual(expect.arrayContaining(['SESSION#*', 'IDEMPOTENCY#*']));
    const writes = statementsOf(roleOf(handlerFile(route))).filter(writesTable);
    expect(writes).toHaveLength(1);
    expect(writes[0].Condition).toEqual(leadingKeysCondition(expected));
    expect(actionsOf(writes[0]).sort()).toEqual([...TABLE_WRITE_ACTIONS].sort());
  });

  it('grants the change feed the event log only', () => {
    const changeFeed = streamConsumers.find((c) => c.name === 'change-feed')!;
    const writes = statementsOf(roleOf(changeFeed.handler)).filter(writesTable);
    expect(writes).toHaveLength(1);
    expect(writes[0].Condition).toEqual(leadingKeysCondition(['LIVE', 'LIVE#*']));
  });

  it(`keeps every role's inline policy under IAM's ${INLINE_POLICY_MAX_CHARS} characters`, () => {
    // The template form is longer than what IAM counts (CloudFormation functions resolve to shorter ARNs).
    for (const [name, role] of roles()) {
      const size = (role.Properties?.Policies ?? [])
        .map((p: any) => JSON.stringify(p.PolicyDocument).length)
        .reduce((a: number, b: number) => a + b, 0);
      expect(size, name).toBeLessThanOrEqual(INLINE_POLICY_MAX_CHARS);
    }
  });
});

describe("people's data rights", () => {
  const worker = () => schedules.find((x) => x.name === 'data-rights-work')!;
  /** The S3 statements of a role, with their resources as text. */
  const s3Statements = (role: Resource) =>
    statementsOf(role)
      .filter((st) => actionsOf(st).some((a) => a.startsWith('s3:')))
      .map((st) => ({ actions: actionsOf(st), resources: JSON.stringify(st.Resource) }));
  const ERASED = ['exports/', 'posts/', 'pending-uploads/', 'avatars/', 'documents/'];
  /** What it reads and writes itself: its exports, and the whole lists' documents it folds an erased person out of. */
  const OWN = ['/exports/*', '/documents/*'];

  it('lets the data-rights worker scan the table and erase every version, under the prefixes it erases only', () => {
    const role = roleOf(worker().handler);
    expect(statementsOf(role).some((st) => actionsOf(st).includes('dynamodb:Scan'))).toBe(true);
    const s3 = s3Statements(role);
    // Listing versions is a bucket action (no key prefix in its resource).
    const listing = s3.filter((st) => st.actions.includes('s3:ListBucketVersions'));
    expect(listing).toHaveLength(1);
    expect(listing[0].resources).not.toContain('/*');
    // Every object grant names one of the erased prefixes, and every one of them may delete versions.
    const objects = s3.filter((st) => st.actions.some((a) => a.endsWith('Object') || a.endsWith('ObjectVersion')));
    const prefixes = objects.map((st) => ERASED.find((p) => st.resources.includes(`/${p}*`)));
    expect(prefixes.sort()).toEqual([...ERASED].sort());
    for (const st of objects) expect(st.actions, st.resources).toContain('s3:DeleteObjectVersion');
    // Its exports and the documents it reads and writes; of the others' objects it may only erase.
    for (const st of objects.filter((x) => !OWN.some((own) => x.resources.includes(own))))
      expect(st.actions.sort(), st.resources).toEqual(['s3:DeleteObject', 's3:DeleteObjectVersion']);
  });

  it('gives no other role the version erasure', () => {
    const erasers = roles()
      .filter(([, role]) =>
        s3Statements(role).some((st) =>
          st.actions.some((a) => a === 's3:DeleteObjectVersion' || a === 's3:ListBucketVersions'),
        ),
      )
      .map(([, role]) => role.Properties?.Description);
    expect(erasers).toEqual([`Runs ${worker().handler}`]);
  });

  it('leaves PEOPLE_RETENTION_DAYS out of every function when workplace:peopleRetentionDays is unset', () => {
    for (const [stack, template] of s.templates)
      for (const [id, fn] of resourcesOf(template, 'AWS::Lambda::Function'))
        expect(fn.Properties?.Environment?.Variables?.PEOPLE_RETENTION_DAYS, `${stack}/${id}`).toBeUndefined();
  });
});
