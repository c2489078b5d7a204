import type { RequestContext } from './context.ts';

/** The origin the client reached the service at, as it sees it (SSO's redirect URI and same-origin callbacks). */
export const serviceOrigin = (req: RequestContext) =>
  `${req.secure ? 'https' : 'http'}://${req.headers.host ?? 'localhost'}`;
