/**
 * Builds an UpdateExpression that sets these attributes and removes those (values may be anything the
 * document client marshals; names are always aliased, so reserved words are safe).
 */
export function updateExpression(set: Record<string, unknown>, remove: string[] = []) {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets = Object.entries(set).map(([name, value], i) => {
    names[`#s${i}`] = name;
    values[`:s${i}`] = value;
    return `#s${i} = :s${i}`;
  });
  const removes = remove.map((name, i) => {
    names[`#r${i}`] = name;
    return `#r${i}`;
  });
  const parts = [
    sets.length ? `SET ${sets.join(', ')}` : '',
    removes.length ? `REMOVE ${removes.join(', ')}` : '',
  ].filter(Boolean);
  return {
    UpdateExpression: parts.join(' '),
    ExpressionAttributeNames: names,
    ...(sets.length ? { ExpressionAttributeValues: values } : {}),
  };
}

/** Merges extra condition names and values into an update built by `updateExpression`. */
export function withCondition(
  update: ReturnType<typeof updateExpression>,
  condition: string,
  names: Record<string, string> = {},
  values: Record<string, unknown> = {},
) {
  return {
    ...update,
    ConditionExpression: condition,
    ExpressionAttributeNames: { ...update.ExpressionAttributeNames, ...names },
    ...(update.ExpressionAttributeValues || Object.keys(values).length
      ? { ExpressionAttributeValues: { ...(update.ExpressionAttributeValues ?? {}), ...values } }
      : {}),
  };
}

/**
 * Whether two stored values are the same: JSON compares lists and maps by content but writes every
 * set as `{}`, so sets are compared by their members (sorted) here.
 */
export function sameStoredValue(a: unknown, b: unknown): boolean {
  const canonical = (v: unknown) =>
    JSON.stringify(v, (_key, x) => (x instanceof Set ? { $set: [...x].map(String).sort() } : x));
  return canonical(a) === canonical(b);
}
