import { listSkillsRoute } from '../../shared/api/routes/profiles.ts';
import { route } from '../../shared/http/route.ts';
import { directorySkills } from '../../shared/people/directory.ts';

export const handler = route(listSkillsRoute, async () => directorySkills());
