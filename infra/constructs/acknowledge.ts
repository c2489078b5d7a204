import { Stack, Validations } from 'aws-cdk-lib';
import type { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IConstruct } from 'constructs';

/**
 * cdk-nag (v3) findings are acknowledged through CDK's own `Validations.of(x).acknowledge()`, one
 * finding id at a time: `AwsSolutions-IAM5[Resource::<flattened ARN>]` for a wildcard resource. These
 * helpers compute those ids from the statements themselves, so a deliberate wildcard (an object key
 * prefix, SNS endpoints) is acknowledged with its reason and any other wildcard still fails the check.
 *
 * The flattening mirrors cdk-nag's: `Fn::Join` joins its parts, `Ref`/`Fn::GetAtt` become `<Id>` /
 * `<Id.Attr>`, `Fn::ImportValue` becomes the export's name. It is stable only for values that resolve
 * the same way at construction and at synthesis, which is why the stacks share data resources through
 * explicitly named exports (`Fn.importValue`) rather than CDK's generated cross-stack references.
 */
export function flattenReference(node: unknown): string {
  if (node === undefined) return '';
  if (typeof node === 'string') return node.replace(/\$\{/g, '<').replace(/\}/g, '>');
  const o = node as Record<string, any>;
  if (o['Fn::Join']) {
    const [delimiter, items] = o['Fn::Join'] as [string, unknown[]];
    return items.map(flattenReference).join(delimiter);
  }
  if (o['Fn::Sub']) return flattenReference(o['Fn::Sub']);
  if (o['Fn::GetAtt']) {
    const [resource, attribute] = o['Fn::GetAtt'] as [unknown, unknown];
    return `<${flattenReference(resource)}.${flattenReference(attribute)}>`;
  }
  if (o['Fn::ImportValue']) return flattenReference(o['Fn::ImportValue']);
  if (o.Ref) return `<${flattenReference(o.Ref)}>`;
  return JSON.stringify(node);
}

/** The AwsSolutions-IAM5 finding ids a statement will raise (wildcard actions and resources). */
export function wildcardFindings(scope: IConstruct, statement: PolicyStatement): string[] {
  const json = Stack.of(scope).resolve(statement.toStatementJson()) as { Action?: unknown; Resource?: unknown };
  const list = (v: unknown): unknown[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
  const actions = list(json.Action)
    .filter((a): a is string => typeof a === 'string' && a.includes('*'))
    .map((a) => `AwsSolutions-IAM5[Action::${a}]`);
  const resources = list(json.Resource)
    .map(flattenReference)
    .filter((r) => r.includes('*'))
    .map((r) => `AwsSolutions-IAM5[Resource::${r}]`);
  return [...actions, ...resources];
}

/** Acknowledges the wildcard findings of `statement` on `scope` (the role that carries it). */
export function acknowledgeWildcards(scope: IConstruct, statement: PolicyStatement, reason: string): void {
  for (const id of wildcardFindings(scope, statement)) Validations.of(scope).acknowledge({ id, reason });
}

/** Acknowledges one finding on a construct (and everything under it), with the reason on record. */
export function acknowledge(scope: IConstruct, id: string, reason: string): void {
  Validations.of(scope).acknowledge({ id, reason });
}
