import { SSMProvider } from '@aws-lambda-powertools/parameters/ssm';
import { SSMClient } from '@aws-sdk/client-ssm';
import { awsClient } from '../aws/clients.ts';
import { SECRET_CACHE_SECONDS } from './secrets.ts';

/*
 * Kept apart from secrets.ts, which every function bundles: only the functions that read an SSM
 * parameter (the media signing settings) carry the SSM client.
 */
let provider: SSMProvider | undefined;

/** Powertools' provider on a client made like every other (shared/aws/clients.ts: the local access guard sees it). */
const parameters = () => (provider ??= new SSMProvider({ awsSdkV3Client: awsClient('ssm', new SSMClient({})) }));

/**
 * A JSON SSM parameter (configuration the stacks write, e.g. the media signing settings), fetched
 * and cached by Powertools Parameters like the secrets.
 */
export async function fetchJsonParameter<T>(name: string): Promise<T> {
  const value = await parameters().get(name, { transform: 'json', maxAge: SECRET_CACHE_SECONDS });
  if (value === undefined || value === null) throw new Error(`The parameter ${name} holds no value.`);
  return value as T;
}
