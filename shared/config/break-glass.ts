/**
 * The break-glass account's address (lower-case), or undefined (docs/sso.md): the super admin who keeps
 * a password when password sign-in is off, and whom SCIM never renames or deactivates.
 *
 * The one module that reads `SSO_BREAK_GLASS_EMAIL`: every function whose bundle holds it enforces the
 * rule, so each of them is given the variable when deployed (shared/config/scoped-settings.ts).
 */
export function breakGlassEmail(): string | undefined {
  const v = process.env.SSO_BREAK_GLASS_EMAIL || process.env.ADMIN_EMAIL;
  return v ? v.trim().toLowerCase() : undefined;
}
