import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { awsClient } from '../aws/clients.ts';
import { awsClientBounds } from '../config/aws-client-bounds.ts';
import { env } from '../config/env.ts';

/**
 * One document client per Lambda instance. The endpoint comes from the SDK's own variable
 * (`AWS_ENDPOINT_URL_DYNAMODB`), which is how the local runtime and LocalStack point it elsewhere.
 */
let client: DynamoDBDocumentClient | undefined;

export function db(): DynamoDBDocumentClient {
  client ??= DynamoDBDocumentClient.from(
    awsClient('dynamodb', new DynamoDBClient({ region: env.region, ...awsClientBounds(2_000) })),
    { marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false } },
  );
  return client;
}

/** Lets tests and the bench install an instrumented client. */
export function setDbClient(c: DynamoDBDocumentClient | undefined): void {
  client = c;
}

export const tableName = () => env.tableName;
