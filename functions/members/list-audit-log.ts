import { listAuditLogRoute } from '../../shared/api/routes/audit.ts';
import { listAuditLog } from '../../shared/audit/log.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(listAuditLogRoute, (req) => listAuditLog(req.query));
