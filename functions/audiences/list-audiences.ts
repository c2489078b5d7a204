import { listAudiencesRoute } from '../../shared/api/routes/audiences.ts';
import { listAudiences } from '../../shared/audiences/audiences.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(listAudiencesRoute, (req) => listAudiences(req.query));
