import { API_PREFIX, defineRoute } from '../route-def.ts';
import { Profile } from '../schemas/common.ts';

export const getMyProfile = defineRoute({
  name: 'get-my-profile',
  area: 'profiles',
  method: 'GET',
  path: `${API_PREFIX}/users/me/profile`,
  auth: 'session',
  summary: "The caller's profile: the cheapest check that a token is good (carries role).",
  status: 200,
  response: Profile,
});

export const getPerson = defineRoute({
  name: 'get-person',
  area: 'profiles',
  method: 'GET',
  path: `${API_PREFIX}/people/{userId}`,
  auth: 'session',
  summary: "A person's profile (deactivated people still answer; status shows it).",
  status: 200,
  response: Profile,
  errors: [404],
});

export const profileRoutes = [getMyProfile, getPerson];
