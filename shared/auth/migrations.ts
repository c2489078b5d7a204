import type { LegacyForm } from '../migrations/stored-form.ts';

/**
 * Older stored forms of the auth area's entities (CHANGELOG.md, 0.2.0): items written before they
 * stored their key composites, and the throttles stored under one name before they were two entities.
 * Each composite is the end of the item's partition key.
 */
const afterPrefix = (pk: string, prefix: string) => pk.slice(prefix.length);

export const authLegacyForms: LegacyForm[] = [
  {
    entity: 'Session',
    matches: (i) => i.entity === 'Session' && i.tokenHash === undefined,
    fields: (i) => ({ tokenHash: afterPrefix(i.pk, 'SESSION#') }),
    change: 'sessions store their token hash (tokenHash)',
  },
  {
    entity: 'ResetToken',
    matches: (i) => i.entity === 'ResetToken' && i.tokenHash === undefined,
    fields: (i) => ({ tokenHash: afterPrefix(i.pk, 'RESET#') }),
    change: 'password-reset tokens store their token hash (tokenHash)',
  },
  {
    entity: 'EmailClaim',
    matches: (i) => i.entity === 'EmailClaim' && i.email === undefined,
    fields: (i) => ({ email: afterPrefix(i.pk, 'EMAIL#') }),
    change: 'e-mail claims store their (lower-case) address (email)',
  },
  {
    entity: 'Credentials',
    matches: (i) => i.entity === 'Credentials' && i.userId === undefined,
    fields: (i) => ({ userId: afterPrefix(i.pk, 'USER#') }),
    change: 'credentials store their person (userId)',
  },
  {
    entity: 'SignInThrottle',
    matches: (i) => i.pk.startsWith('SIGNIN#') && (i.entity !== 'SignInThrottle' || i.email === undefined),
    fields: (i) => ({ email: afterPrefix(i.pk, 'SIGNIN#') }),
    change: 'sign-in throttles are the entity SignInThrottle (was AttemptThrottle) and store their address',
  },
  {
    entity: 'PasswordCheckThrottle',
    matches: (i) => i.pk.startsWith('PWCHECK#') && (i.entity !== 'PasswordCheckThrottle' || i.userId === undefined),
    fields: (i) => ({ userId: afterPrefix(i.pk, 'PWCHECK#') }),
    change:
      'password-check throttles are the entity PasswordCheckThrottle (was AttemptThrottle) and store their person',
  },
];
