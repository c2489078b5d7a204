import { getDirectoryFacetsRoute } from '../../shared/api/routes/profiles.ts';
import { route } from '../../shared/http/route.ts';
import { directoryFacets } from '../../shared/people/directory.ts';

export const handler = route(getDirectoryFacetsRoute, async () => directoryFacets());
