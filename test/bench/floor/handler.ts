import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';

/**
 * The cold-start floor: the least a function of this service can be — one DynamoDB `GetItem`, its
 * client constructed at init. The bench bundles it with the routes' esbuild settings (same SDK mode,
 * minified) and measures every route's cold import against it.
 */
const client = new DynamoDBClient({});

export const handler = async (event: { id?: string }) => {
  const out = await client.send(
    new GetItemCommand({ TableName: process.env.TABLE_NAME, Key: { pk: { S: event.id ?? 'x' }, sk: { S: 'x' } } }),
  );
  return out.Item ?? null;
};
