import { baseUrl } from '../support/api.ts';
import { openSse } from '../support/sse.ts';

/** The realtime stream of the local runtime this test run started (the client is ../support/sse.ts). */
export const openStream = (token: string, lastEventId?: string, clientId?: string) =>
  openSse(baseUrl(), token, lastEventId, clientId);
