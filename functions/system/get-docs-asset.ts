import { readDocsAsset } from '../../shared/api/docs-assets.ts';
import { docsAssetRoute } from '../../shared/api/routes/system.ts';
import { notFound } from '../../shared/errors.ts';
import { rawReply } from '../../shared/http/http-response.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(docsAssetRoute, async (req) => {
  const asset = readDocsAsset(req.params.asset);
  if (!asset) throw notFound('No such asset.');
  return rawReply(asset.data, asset.contentType, { 'cache-control': 'private, max-age=3600' });
});
