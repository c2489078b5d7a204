/**
 * `npm run idp -- [--people 50] [--port 3400] [--api http://127.0.0.1:3000]`
 *
 * A demo OpenID Connect identity provider on the laptop (docs/sso.md), so single sign-on can be tried
 * offline: panva's oidc-provider with the demo company's people (`npm run seed`: demo-1@example.com, …)
 * and the first super admin. Its sign-in page lists them: pick one, no password. It prints the settings
 * that point `npm start` at it.
 */
import { parseArgs } from 'node:util';
import { demoPerson } from '../seed/company.ts';
import { type IdpPerson, startOidcIdp } from './oidc-idp.ts';

const { values } = parseArgs({
  options: {
    people: { type: 'string', default: '50' },
    port: { type: 'string', default: process.env.IDP_PORT ?? '3400' },
    api: { type: 'string', default: process.env.BASE_URL ?? `http://127.0.0.1:${process.env.PORT ?? 3000}` },
  },
});

const CLIENT_ID = 'workplace-demo';
const CLIENT_SECRET = 'demo-client-secret-not-for-production';
const api = values.api!.replace(/\/$/, '');
const people = new Map<string, IdpPerson>();
people.set('demo-admin', { email: process.env.ADMIN_EMAIL ?? 'admin@example.com', name: 'First super admin' });
for (let i = 0; i < Number(values.people); i++) people.set(`demo-${i + 1}`, demoPerson(i));

const idp = await startOidcIdp({
  port: Number(values.port),
  clientId: CLIENT_ID,
  clientSecret: CLIENT_SECRET,
  redirectUris: [`${api}/api/v1/auth/sso/callback/oidc`],
  people,
  chooserPage: true,
});
console.log(`[idp] demo identity provider at ${idp.issuer} with ${people.size} people; start the service with:`);
console.log(
  `  OIDC_ISSUER=${idp.issuer} OIDC_CLIENT_ID=${CLIENT_ID} OIDC_CLIENT_SECRET=${CLIENT_SECRET} OIDC_EMAIL_DOMAINS=example.com npm start`,
);
console.log(
  `[idp] then POST ${api}/api/v1/auth/sign-in/sso {"providerId":"oidc","callbackURL":"/api/v1/docs"} and open its url`,
);
const stop = () => idp.stop().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
