import { User } from './entities.ts';
import { createMember } from './members.ts';

/**
 * Creates the first super admin when none exists: `ADMIN_EMAIL` / `ADMIN_PASSWORD`,
 * name Admin. Runs at start; harmless when one exists.
 */
export async function ensureFirstSuperAdmin(email: string, password: string): Promise<{ created: boolean }> {
  const admins = await User.queryAll({ index: 'byRole', key: { role: 'super_admin' } });
  if (admins.length > 0) return { created: false };
  await createMember({ name: 'Admin', email, password, role: 'super_admin' }, { status: 'active' });
  return { created: true };
}
