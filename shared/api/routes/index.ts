import type { AnyRoute } from '../route-def.ts';
import { authRoutes } from './auth.ts';
import { memberRoutes } from './members.ts';
import { notificationRoutes } from './notifications.ts';
import { profileRoutes } from './profiles.ts';
import { systemRoutes } from './system.ts';

/**
 * The route table: every route of the API, once. The CDK stacks, the local runtime, validation and
 * the OpenAPI document all read this list.
 */
export const routes: AnyRoute[] = [
  ...systemRoutes,
  ...authRoutes,
  ...memberRoutes,
  ...profileRoutes,
  ...notificationRoutes,
];
