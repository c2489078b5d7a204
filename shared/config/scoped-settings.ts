/**
 * Settings that only the functions running a rule need, and the one module that reads each: a
 * function whose bundle contains the reading module (code that survived tree shaking) is given the
 * variables when deployed, and no other (infra/build/bundle.ts records it per bundle, as for the
 * secrets; infra/constructs/route-function.ts sets them; test/infra/stacks.test.ts asserts it on the
 * synthesised template). So a rule cannot run where its setting is missing.
 */
export const SCOPED_SETTINGS = {
  /** The break-glass address (docs/sso.md): password sign-in, and SCIM's refusals. */
  breakGlass: { variables: ['SSO_BREAK_GLASS_EMAIL'], readBy: 'shared/config/break-glass.ts' },
} as const;

export type ScopedSetting = keyof typeof SCOPED_SETTINGS;
export const SCOPED_SETTING_NAMES = Object.keys(SCOPED_SETTINGS) as ScopedSetting[];
