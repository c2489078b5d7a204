/** The first super admin every test runtime is started with. */
export const FIRST_ADMIN = { email: 'admin@example.com', password: 'admin-password-1' };
