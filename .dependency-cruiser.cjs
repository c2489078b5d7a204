/**
 * The areas of shared/ in layers (docs/architecture.md, "Areas in layers"): an area imports only the
 * areas listed before it. Above them all stand the composition roots (functions/, infra/), which no
 * module of shared/ imports. Tests may import anything. `npm run lint` runs this with the known
 * violations of `.dependency-cruiser-known-violations.json`, the imports still to be turned around:
 * a new one fails the lint, and the file only ever shrinks (`npm run lint:layers:baseline` rewrites it).
 */
const LAYERS = [
  // Primitives: no domain knowledge.
  'errors',
  'aws',
  'config',
  'util',
  'observability',
  'db',
  'storage',
  'transports',
  // Machinery the domain areas plug into.
  'migrations',
  'live',
  // The admin audit log: its entries and the request scope that writes them with the request's first write.
  'audit',
  // Domain areas, each standing on the ones before it.
  'auth',
  'presence',
  'documents',
  'people',
  // Who is calling and how they get in: sign-in, passwords, a token resolved to its person (auth's
  // sessions and credentials, people's person).
  'access',
  // Push delivers to devices and owns the kinds of notification; notifications record and then push.
  'push',
  'notifications',
  'calendar',
  'hr',
  // The whole lists kept as documents (roster, attendance of the day): built from people and hr.
  'whole-lists',
  // Audiences: named rules over what the company controls, evaluated over the roster (docs/audiences.md).
  'audiences',
  // Pulse surveys (docs/surveys.md): answers kept apart from people as the grievance channel's are;
  // audiences freeze who is asked, notifications and push tell them.
  'surveys',
  // A post's website record (its entities and life), written by the feed with the post.
  'website',
  'feed',
  // Reach: what people saw and did with posts, rolled up as it happens (docs/reach.md); on the feed's posts.
  'reach',
  'office-updates',
  // Reports of posts and comments and their review: on the feed (hiding) and notifications.
  'moderation',
  'grievances',
  // Provisioning from the company's identity provider (SCIM 2.0), on the areas it provisions.
  'scim',
  // Single sign-on with OpenID Connect: signs existing members in (auth's sessions, people's accounts).
  'sso',
  // People's data rights: every area's items, SCIM's links included.
  'data-rights',
  // The HTTP surface: the route table and its schemas, then the middlewares that serve it.
  'api',
  'http',
  // Registries that list what every area declares (migrations, change mappers): composition, at the top.
  'registry',
];

const areaPath = (areas) => `^shared/(${areas.join('|')})(/|\\.ts$)`;

module.exports = {
  forbidden: [
    ...LAYERS.slice(0, -1).map((area, i) => ({
      name: `layer-${area}`,
      comment: `shared/${area} stands below ${LAYERS.slice(i + 1).join(', ')}: it may not import them`,
      severity: 'error',
      from: { path: areaPath([area]), pathNot: '\\.test\\.ts$' },
      to: { path: areaPath(LAYERS.slice(i + 1)) },
    })),
    {
      name: 'shared-below-roots',
      comment: 'shared/ never imports a composition root (functions/, infra/) or a test',
      severity: 'error',
      from: { path: '^shared/', pathNot: '\\.test\\.ts$' },
      to: { path: '^(functions|infra|test)/' },
    },
    {
      name: 'every-area-in-a-layer',
      comment: 'a new folder of shared/ takes its place in LAYERS',
      severity: 'error',
      from: { path: '^shared/', pathNot: '\\.test\\.ts$' },
      to: { path: '^shared/', pathNot: areaPath(LAYERS) },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/' },
    // The project's TypeScript (7) has no compiler API yet for dependency-cruiser; swc parses the sources.
    parser: 'swc',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
  },
};
