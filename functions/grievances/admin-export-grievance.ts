import { adminExportGrievanceRoute } from '../../shared/api/routes/grievances.ts';
import { exportFormat, grievanceRecord, grievanceRecordPdf } from '../../shared/grievances/export.ts';
import { NotAcceptableError } from '../../shared/http/errors.ts';
import { rawReply } from '../../shared/http/http-response.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(adminExportGrievanceRoute, async (req) => {
  const format = exportFormat(req.headers.accept);
  if (!format) throw new NotAcceptableError('The record is available as application/json or application/pdf.');
  const record = await grievanceRecord(req.params.grievanceId);
  if (format === 'json') return rawReply(JSON.stringify(record), 'application/json; charset=utf-8');
  return rawReply(await grievanceRecordPdf(record), 'application/pdf', {
    'content-disposition': `attachment; filename="grievance-${record.grievance.id}.pdf"`,
  });
});
