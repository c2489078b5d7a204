import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

/** A route handler for the local gateway's tests: waits `ms`, then answers `size` bytes. */
export async function handler(event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> {
  const ms = Number(event.queryStringParameters?.ms ?? 0);
  const size = Number(event.queryStringParameters?.size ?? 2);
  await new Promise((r) => setTimeout(r, ms));
  return { statusCode: 200, headers: { 'content-type': 'text/plain' }, body: 'x'.repeat(size) };
}
