import { generateKeyPairSync } from 'node:crypto';
import { Match } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../shared/api/routes/index.ts';
import { PENDING_UPLOADS_PREFIX } from '../../shared/storage/pending-uploads.ts';
import { MEDIA_CACHE_CONTROL } from '../../shared/storage/public-urls.ts';
import { FULL_CONTEXT, resourcesOf, SYNTH_TIMEOUT, type Synthesized, synthesize } from './synth.ts';

/**
 * The public feed's media through CloudFront (shared/storage/public-urls.ts): with a signing key pair
 * configured, the edge stack serves `/posts/*` and `/avatars/*` from the bucket (origin access control,
 * signed URLs of the key group only, cached), the bucket lets CloudFront read just those prefixes, and
 * the office-updates functions may read the private key secret and the signing parameter.
 */
const SECRET = 'workplace/media-signing-key';
const publicKeyPem = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .publicKey.export({ type: 'spki', format: 'pem' })
  .toString();
const MEDIA_CONTEXT = { 'workplace:mediaSigningPublicKey': publicKeyPem, 'workplace:mediaSigningSecret': SECRET };
const signers = routes.filter((r) => r.area === 'office-updates' && r.access?.publicMedia);
const probeRoutes = routes.filter((r) => r.area === 'office-updates' || r.area === 'system');

describe('public media through CloudFront', () => {
  let s: Synthesized;
  beforeAll(async () => {
    s = await synthesize({ routes: probeRoutes }, { context: { ...FULL_CONTEXT, ...MEDIA_CONTEXT } });
  }, SYNTH_TIMEOUT);
  const template = (name: string) => s.templates.get(`Workplace-${name}`)!;

  it('creates the public key from context and a key group of it', () => {
    const edge = template('Edge');
    edge.hasResourceProperties('AWS::CloudFront::PublicKey', {
      PublicKeyConfig: Match.objectLike({ EncodedKey: publicKeyPem }),
    });
    const [[publicKeyId]] = resourcesOf(edge, 'AWS::CloudFront::PublicKey');
    edge.hasResourceProperties('AWS::CloudFront::KeyGroup', {
      KeyGroupConfig: Match.objectLike({ Items: [{ Ref: publicKeyId }] }),
    });
  });

  it('serves /posts/* and /avatars/* from the bucket through origin access control, signed URLs only, cached', () => {
    const edge = template('Edge');
    edge.resourceCountIs('AWS::CloudFront::OriginAccessControl', 1);
    edge.hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
      OriginAccessControlConfig: Match.objectLike({ OriginAccessControlOriginType: 's3', SigningBehavior: 'always' }),
    });
    const [[keyGroupId]] = resourcesOf(edge, 'AWS::CloudFront::KeyGroup');
    const [[, distribution]] = resourcesOf(edge, 'AWS::CloudFront::Distribution');
    const config = distribution.Properties!.DistributionConfig;
    const s3Origins = config.Origins.filter((o: any) => o.S3OriginConfig);
    expect(s3Origins).toHaveLength(1);
    expect(s3Origins[0].OriginAccessControlId).toBeDefined();
    expect(JSON.stringify(s3Origins[0].DomainName)).toContain('workplace-media-123456789012-eu-west-1');
    for (const pattern of ['/posts/*', '/avatars/*']) {
      const behaviour = config.CacheBehaviors.find((b: any) => b.PathPattern === pattern);
      expect(behaviour, pattern).toBeDefined();
      expect(behaviour.TargetOriginId).toBe(s3Origins[0].Id);
      expect(behaviour.TrustedKeyGroups).toEqual([{ Ref: keyGroupId }]);
      expect(behaviour.AllowedMethods).toEqual(['GET', 'HEAD']);
      // CachingOptimized: cached, query strings (the signature) out of the cache key.
      expect(behaviour.CachePolicyId).toBe('658327ea-f89d-4fab-a63d-7e88639e58f6');
      expect(behaviour.ViewerProtocolPolicy).toBe('https-only');
    }
    // The API behaviour stays unsigned and uncached.
    expect(config.DefaultCacheBehavior.TrustedKeyGroups).toBeUndefined();
  });

  it('writes the base URL and key pair id to the signing parameter', () => {
    const edge = template('Edge');
    const [[publicKeyId]] = resourcesOf(edge, 'AWS::CloudFront::PublicKey');
    const [[, parameter]] = resourcesOf(edge, 'AWS::SSM::Parameter');
    expect(parameter.Properties!.Name).toBe('/Workplace/media-signing');
    const value = JSON.stringify(parameter.Properties!.Value);
    expect(value).toContain('https://workplace.example.org');
    expect(value).toContain(publicKeyId);
  });

  it('lets CloudFront (this account, origin access control) read only the public media prefixes', () => {
    const data = template('Data');
    const [[, policy]] = resourcesOf(data, 'AWS::S3::BucketPolicy');
    const statements = policy.Properties!.PolicyDocument.Statement as any[];
    const media = statements.filter((st) => st.Principal?.Service === 'cloudfront.amazonaws.com');
    expect(media).toHaveLength(1);
    expect(media[0].Effect).toBe('Allow');
    expect(media[0].Action).toBe('s3:GetObject');
    const resources = JSON.stringify(media[0].Resource);
    expect(resources).toContain('/posts/*');
    expect(resources).toContain('/avatars/*');
    expect(media[0].Resource).toHaveLength(2);
    expect(media[0].Condition.StringEquals['AWS:SourceAccount']).toEqual({ Ref: 'AWS::AccountId' });
    expect(JSON.stringify(media[0].Condition.ArnLike['AWS:SourceArn'])).toContain(':distribution/*');
  });

  it('grants the office-updates functions the one secret and the parameter, and passes their names', () => {
    const stack = template('Routes-OfficeUpdates');
    expect(signers.map((r) => r.name)).toEqual(
      expect.arrayContaining([
        'list-office-updates',
        'get-office-update',
        'list-website-posts',
        'approve-website-post',
      ]),
    );
    const functions = resourcesOf(stack, 'AWS::Lambda::Function').filter(
      ([, fn]) => fn.Properties!.Environment.Variables.MEDIA_SIGNING_SECRET,
    );
    expect(functions).toHaveLength(signers.length);
    for (const [, fn] of functions) {
      const vars = fn.Properties!.Environment.Variables;
      expect(vars.MEDIA_SIGNING_SECRET).toBe(SECRET);
      expect(vars.MEDIA_SIGNING_PARAMETER).toBe('/Workplace/media-signing');
    }
    const roles = resourcesOf(stack, 'AWS::IAM::Role').filter(([, role]) =>
      JSON.stringify(role).includes('MediaSigningKey'),
    );
    expect(roles).toHaveLength(signers.length);
    for (const [, role] of roles) {
      const statements = role.Properties!.Policies[0].PolicyDocument.Statement as any[];
      const secret = statements.find((st) => st.Sid === 'MediaSigningKey');
      expect(secret.Action).toBe('secretsmanager:GetSecretValue');
      expect(JSON.stringify(secret.Resource)).toContain(`:secret:${SECRET}-??????`);
      const parameter = statements.find((st) => st.Sid === 'MediaSigningParameter');
      expect(parameter.Action).toBe('ssm:GetParameter');
      expect(JSON.stringify(parameter.Resource)).toContain(':parameter/Workplace/media-signing');
    }
    // Nobody else reads the secret (other functions read the application secrets, never this one), but
    // the data-rights worker, which links an export's media for the 7 days its document is kept
    // (shared/data-rights/export.ts; an S3 presigned link would die with the role's session).
    expect(JSON.stringify(template('Routes-System').toJSON())).not.toContain(SECRET);
    expect(JSON.stringify(template('Routes-System').toJSON())).not.toContain('MediaSigningKey');
    const background = resourcesOf(template('Background'), 'AWS::IAM::Role').filter(([, role]) =>
      JSON.stringify(role).includes('MediaSigningKey'),
    );
    expect(background.map(([, role]) => role.Properties!.Description)).toEqual([
      'Runs functions/schedules/work-data-rights.ts',
    ]);
  });

  it('lets only the erasing function invalidate erased media on the distribution, which the signing parameter names', () => {
    // Every role of every stack that may create an invalidation: the data-rights worker alone.
    const invalidators = [...s.templates.values()].flatMap((t) =>
      resourcesOf(t, 'AWS::IAM::Role').filter(([, role]) =>
        JSON.stringify(role).includes('cloudfront:CreateInvalidation'),
      ),
    );
    expect(invalidators.map(([, role]) => role.Properties!.Description)).toEqual([
      'Runs functions/schedules/work-data-rights.ts',
    ]);
    const statements = invalidators[0][1].Properties!.Policies[0].PolicyDocument.Statement as any[];
    const grant = statements.find((st) => st.Sid === 'MediaInvalidation');
    expect(grant.Action).toBe('cloudfront:CreateInvalidation');
    expect(JSON.stringify(grant.Resource)).toMatch(/:cloudfront::.*:distribution\/\*/);
    // It finds the distribution's id in the parameter it already reads for the media links.
    expect(statements.find((st) => st.Sid === 'MediaSigningParameter')).toBeDefined();
    const [[, parameter]] = resourcesOf(template('Edge'), 'AWS::SSM::Parameter');
    const [[distributionId]] = resourcesOf(template('Edge'), 'AWS::CloudFront::Distribution');
    expect(JSON.stringify(parameter.Properties!.Value)).toContain('"distributionId');
    expect(JSON.stringify(parameter.Properties!.Value)).toContain(JSON.stringify({ Ref: distributionId }));
  });

  it('answers public media with CORS for any origin (no credentials) and a long Cache-Control', () => {
    const edge = template('Edge');
    const [[, distribution]] = resourcesOf(edge, 'AWS::CloudFront::Distribution');
    const config = distribution.Properties!.DistributionConfig;
    const media = config.CacheBehaviors.find((b: any) => b.PathPattern === '/posts/*');
    const [[policyId, policy]] = resourcesOf(edge, 'AWS::CloudFront::ResponseHeadersPolicy').filter(([, p]) =>
      JSON.stringify(p).includes('CorsConfig'),
    );
    expect(media.ResponseHeadersPolicyId).toEqual({ Ref: policyId });
    const headers = policy.Properties!.ResponseHeadersPolicyConfig;
    expect(headers.CorsConfig.AccessControlAllowOrigins.Items).toEqual(['*']);
    expect(headers.CorsConfig.AccessControlAllowCredentials).toBe(false);
    expect(headers.CustomHeadersConfig.Items).toEqual([
      { Header: 'cache-control', Value: MEDIA_CACHE_CONTROL, Override: true },
    ]);
    // The security headers stay on media answers too.
    expect(headers.SecurityHeadersConfig.StrictTransportSecurity).toBeDefined();
  });

  it('answers every media behaviour sandboxed and nosniff: nothing from the bucket runs on the API host', () => {
    const edge = template('Edge');
    const [[, distribution]] = resourcesOf(edge, 'AWS::CloudFront::Distribution');
    const config = distribution.Properties!.DistributionConfig;
    const policies = new Map(resourcesOf(edge, 'AWS::CloudFront::ResponseHeadersPolicy'));
    const mediaBehaviours = config.CacheBehaviors.filter((b: any) => b.TrustedKeyGroups);
    expect(mediaBehaviours.map((b: any) => b.PathPattern).sort()).toEqual(['/avatars/*', '/posts/*']);
    for (const behaviour of mediaBehaviours) {
      const policy = policies.get(behaviour.ResponseHeadersPolicyId.Ref)!;
      const security = policy.Properties!.ResponseHeadersPolicyConfig.SecurityHeadersConfig;
      expect(security.ContentSecurityPolicy, behaviour.PathPattern).toEqual({
        ContentSecurityPolicy: 'sandbox',
        Override: true,
      });
      expect(security.ContentTypeOptions, behaviour.PathPattern).toEqual({ Override: true });
    }
  });

  it('expires presigned uploads never attached (the pending prefix) with a lifecycle rule', () => {
    const data = template('Data');
    const [[, bucket]] = resourcesOf(data, 'AWS::S3::Bucket');
    const rules = bucket.Properties!.LifecycleConfiguration.Rules as any[];
    expect(rules).toContainEqual(
      expect.objectContaining({ Prefix: PENDING_UPLOADS_PREFIX, ExpirationInDays: 1, Status: 'Enabled' }),
    );
    // The versions a repeated PUT (or a refused upload, whose record is gone) overwrote go within a day
    // too, not after the bucket's general MEDIA_NONCURRENT_DAYS (S3 applies the shorter of overlapping rules).
    const pending = rules.find((r) => r.Prefix === PENDING_UPLOADS_PREFIX);
    expect(pending.NoncurrentVersionExpiration).toEqual({ NoncurrentDays: 1 });
    // Only the pending prefix, data exports' documents (docs/data-model.md, Data rights) and past days'
    // attendance documents (derived, rebuilt from the table: Whole lists): attached uploads (posts/) and
    // avatars are kept.
    expect(rules.filter((r) => r.ExpirationInDays).map((r) => r.Prefix)).toEqual(
      expect.arrayContaining([PENDING_UPLOADS_PREFIX, 'exports/', 'documents/attendance-']),
    );
    expect(rules.filter((r) => r.ExpirationInDays)).toHaveLength(3);
  });

  it('caches /api/v1/public/* at the edge, keyed on the query string only, from the API origin', () => {
    const edge = template('Edge');
    const [[, distribution]] = resourcesOf(edge, 'AWS::CloudFront::Distribution');
    const config = distribution.Properties!.DistributionConfig;
    const feed = config.CacheBehaviors.find((b: any) => b.PathPattern === '/api/v1/public/*');
    expect(feed).toBeDefined();
    expect(feed.TargetOriginId).toBe(config.DefaultCacheBehavior.TargetOriginId);
    expect(feed.AllowedMethods).toEqual(['GET', 'HEAD', 'OPTIONS']);
    expect(feed.CachedMethods).toEqual(['GET', 'HEAD']);
    const [[policyId, policy]] = resourcesOf(edge, 'AWS::CloudFront::CachePolicy');
    expect(feed.CachePolicyId).toEqual({ Ref: policyId });
    const params = policy.Properties!.CachePolicyConfig.ParametersInCacheKeyAndForwardedToOrigin;
    expect(params.QueryStringsConfig.QueryStringBehavior).toBe('all');
    expect(params.HeadersConfig.HeaderBehavior).toBe('none');
    expect(params.CookiesConfig.CookieBehavior).toBe('none');
    // The origin's own s-maxage decides (default 0), bounded by the maximum.
    expect(policy.Properties!.CachePolicyConfig.DefaultTTL).toBe(0);
    expect(policy.Properties!.CachePolicyConfig.MaxTTL).toBeGreaterThanOrEqual(60);
    // Everything else stays uncached.
    expect(config.DefaultCacheBehavior.CachePolicyId).toBe('4135ea2d-6df8-44a3-9df3-4b5a84be39ad');
  });

  it('routes HEAD beside GET for the cacheable public routes, and only for them', () => {
    const keys = resourcesOf(template('Routes-OfficeUpdates'), 'AWS::ApiGatewayV2::Route').map(
      ([, r]) => r.Properties!.RouteKey as string,
    );
    const heads = keys.filter((k) => k.startsWith('HEAD '));
    expect(heads.sort()).toEqual(
      routes
        .filter((r) => r.cache)
        .map((r) => `HEAD ${r.path}`)
        .sort(),
    );
    expect(heads).toContain('HEAD /api/v1/public/office-updates');
    for (const h of heads) expect(keys).toContain(h.replace('HEAD', 'GET'));
  });

  it('is clean under cdk-nag', () => {
    const { violations } = new AwsSolutionsChecks(s.app).validateScope(s.app);
    expect(
      violations.map((v) => `${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`),
    ).toEqual([]);
  });
});

describe('public media without a signing key', () => {
  it(
    'synthesises without the media behaviours, grants or parameter (S3 presigned fallback)',
    async () => {
      const s = await synthesize({ routes: probeRoutes }, { cfnValidation: false });
      const edge = s.templates.get('Workplace-Edge')!;
      edge.resourceCountIs('AWS::CloudFront::PublicKey', 0);
      edge.resourceCountIs('AWS::CloudFront::KeyGroup', 0);
      edge.resourceCountIs('AWS::CloudFront::OriginAccessControl', 0);
      edge.resourceCountIs('AWS::SSM::Parameter', 0);
      const routesStack = JSON.stringify(s.templates.get('Workplace-Routes-OfficeUpdates')!.toJSON());
      expect(routesStack).not.toContain('MEDIA_SIGNING');
      // No grant of a media signing key (the paged lists still read the cursor secret).
      expect(routesStack).not.toContain('MediaSigningKey');
      expect(JSON.stringify(s.templates.get('Workplace-Data')!.toJSON())).not.toContain('cloudfront.amazonaws.com');
    },
    SYNTH_TIMEOUT,
  );

  it(
    'needs the public key and the secret together',
    async () => {
      await expect(
        synthesize(
          { routes: probeRoutes },
          { cfnValidation: false, context: { 'workplace:mediaSigningSecret': SECRET } },
        ),
      ).rejects.toThrow(/go together/);
    },
    SYNTH_TIMEOUT,
  );
});
