import type { ChangeMapper } from './change-events.ts';

/**
 * Every entity's change mapper, by `entity` attribute. Each area adds its own line here (its mappers
 * live next to its domain code, e.g. `shared/feed/change-events.ts`).
 */
export const changeMappers: Record<string, ChangeMapper> = {};
