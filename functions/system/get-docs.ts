import { docsHtml } from '../../shared/api/docs-assets.ts';
import { docsPageRoute } from '../../shared/api/routes/system.ts';
import { rawReply } from '../../shared/http/http-response.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(docsPageRoute, async () => rawReply(docsHtml(), 'text/html; charset=utf-8'));
