import { requestPasswordResetRoute } from '../../shared/api/routes/auth.ts';
import { route } from '../../shared/http/route.ts';

/** No e-mail provider is wired for resets, so this accepts any address and sends nothing. */
export const handler = route(requestPasswordResetRoute, async () => ({ status: true as const }));
