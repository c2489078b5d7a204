import { Annotations, Aws, CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import type { IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import {
  AllowedMethods,
  type BehaviorOptions,
  CacheCookieBehavior,
  CachedMethods,
  CacheHeaderBehavior,
  CachePolicy,
  CacheQueryStringBehavior,
  Function as CloudFrontFunction,
  Distribution,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  HttpVersion,
  KeyGroup,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  PriceClass,
  PublicKey,
  ResponseHeadersPolicy,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { FunctionUrlOrigin, HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import type { IFunctionUrl } from 'aws-cdk-lib/aws-lambda';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { StringParameter } from 'aws-cdk-lib/aws-ssm';
import type { Construct } from 'constructs';
import type { AnyRoute } from '../../shared/api/route-def.ts';
import { PUBLIC_PATH_PREFIX } from '../../shared/http/middlewares/public-answers.ts';
import { CLIENT_AUTHORIZATION_HEADER } from '../../shared/http/middlewares/session.ts';
import { MEDIA_CONTENT_SECURITY_POLICY } from '../../shared/storage/media-headers.ts';
import { MEDIA_CACHE_CONTROL } from '../../shared/storage/public-urls.ts';
import { acknowledge } from '../constructs/acknowledge.ts';
import { type DeployConfig, mediaSigningParameterName } from './config.ts';
import { PUBLIC_MEDIA_PREFIXES } from './data-stack.ts';
import { distributionErrorsAlarm } from './edge-alarms-stack.ts';

export interface StreamingOrigin {
  route: AnyRoute;
  url: IFunctionUrl;
}

export interface EdgeStackProps extends StackProps {
  config: DeployConfig;
  httpApi: IHttpApi;
  /**
   * The regional endpoint of the API's custom domain (the API stack's `originDomainName`): CloudFront
   * then forwards the viewer's Host (the custom domain) instead of reaching execute-api.
   */
  apiOriginDomainName?: string;
  /** The streaming routes and their Function URLs (RESPONSE_STREAM, AWS_IAM). */
  streaming: StreamingOrigin[];
  /** The media bucket (the data stack's imports); its public media are served with `config.mediaSigning`. */
  media?: { bucketName: string; bucketArn: string };
}

/**
 * Longer than the stream's ping interval (25 s, shared/live/stream-session.ts): CloudFront's origin
 * response timeout applies between two chunks of a streamed answer.
 */
export const STREAM_READ_TIMEOUT = Duration.seconds(60);

/**
 * The viewer-request CloudFront Function of the streaming behaviours. Origin access control signs
 * the request to the Function URL with SigV4, which overwrites `Authorization`; the client's bearer
 * token travels on in `x-client-authorization`, which the service reads when `Authorization` is
 * CloudFront's signature (shared/http/middlewares/session.ts, findToken).
 */
export const clientAuthorizationFunctionCode = `function handler(event) {
  var request = event.request;
  var authorization = request.headers.authorization;
  if (authorization) {
    request.headers['${CLIENT_AUTHORIZATION_HEADER}'] = { value: authorization.value };
  }
  return request;
}`;

/**
 * The security headers CloudFront sets on every answer (overriding the origin's): HSTS for two years
 * with subdomains (the service is HTTPS-only), `nosniff` (uploaded media are served with their
 * verified type only), no Referer leaving the service (URLs carry ids), and no framing (clickjacking).
 */
export const SECURITY_HEADERS = {
  strictTransportSecurity: { accessControlMaxAge: Duration.days(730), includeSubdomains: true, override: true },
  contentTypeOptions: { override: true },
  referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.NO_REFERRER, override: true },
  frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
};

/** `/api/v1/things/{id}/stream` → `/api/v1/things/*\/stream` (CloudFront path patterns). */
export const pathPattern = (path: string) => path.replace(/\{[^}]+\}/g, '*');

/**
 * One base address for every client: a CloudFront distribution whose default behaviour forwards
 * everything to the HTTP API (all methods, no caching, every viewer header but Host, cookies and
 * query strings), and one behaviour per streaming route (`/api/v1/realtime/stream`) to that route's
 * Lambda Function URL in RESPONSE_STREAM mode, reached through origin access control (the URL's auth
 * type is AWS_IAM, so only this distribution can call it). Optional custom domain
 * (`workplace:domainName` + `workplace:certificateArn`). Outputs `BaseUrl`.
 */
export class EdgeStack extends Stack {
  readonly distribution: Distribution;
  readonly baseUrl: string;

  constructor(scope: Construct, id: string, props: EdgeStackProps) {
    super(scope, id, props);
    const { config } = props;

    // Security headers on every answer of every behaviour (the API's JSON, the reference page, the
    // stream, the public media), whatever the origin sent.
    const securityHeaders = new ResponseHeadersPolicy(this, 'SecurityHeaders', {
      comment: `${config.prefix}: HSTS, nosniff, no referrer, no framing`,
      securityHeadersBehavior: SECURITY_HEADERS,
    });

    // Every method, no cache: the API's answers are per person. Authorization is forwarded too: with
    // caching disabled, the all-viewer origin request policies pass it to the origin.
    const uncached = {
      cachePolicy: CachePolicy.CACHING_DISABLED,
      originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
      responseHeadersPolicy: securityHeaders,
    } satisfies Partial<BehaviorOptions>;

    // API Gateway's own integration limit is 30 s.
    const originOptions = { protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY, readTimeout: Duration.seconds(30) };
    const apiOrigin = new HttpOrigin(
      props.apiOriginDomainName ?? `${props.httpApi.apiId}.execute-api.${Aws.REGION}.${Aws.URL_SUFFIX}`,
      originOptions,
    );
    // Through the API's custom domain, the Host (and so the TLS SNI) must be that domain: the viewer's.
    const apiBehaviour = props.apiOriginDomainName
      ? { ...uncached, originRequestPolicy: OriginRequestPolicy.ALL_VIEWER }
      : uncached;

    // The public website routes (`/api/v1/public/*`): cached at the edge for as long as their own
    // `s-maxage` says (shared/http/middlewares/public-answers.ts), keyed on the path and the whole
    // query string (limit, cursor) and nothing else (no cookie, no Authorization: they carry no
    // session), revalidated with their ETag. The origin still gets the viewer's headers.
    const publicFeedCache = new CachePolicy(this, 'PublicFeedCache', {
      comment: `${config.prefix}: the public website feed, keyed on the query string`,
      queryStringBehavior: CacheQueryStringBehavior.all(),
      headerBehavior: CacheHeaderBehavior.none(),
      cookieBehavior: CacheCookieBehavior.none(),
      minTtl: Duration.seconds(0),
      defaultTtl: Duration.seconds(0),
      maxTtl: Duration.minutes(10),
      enableAcceptEncodingGzip: true,
      enableAcceptEncodingBrotli: true,
    });
    const additionalBehaviors: Record<string, BehaviorOptions> = {
      [`${PUBLIC_PATH_PREFIX}*`]: {
        ...apiBehaviour,
        origin: apiOrigin,
        cachePolicy: publicFeedCache,
        allowedMethods: AllowedMethods.ALLOW_GET_HEAD_OPTIONS,
        cachedMethods: CachedMethods.CACHE_GET_HEAD,
      },
    };

    const clientAuthorization = props.streaming.length
      ? new CloudFrontFunction(this, 'ClientAuthorization', {
          code: FunctionCode.fromInline(clientAuthorizationFunctionCode),
          runtime: FunctionRuntime.JS_2_0,
          comment: `Copies Authorization into ${CLIENT_AUTHORIZATION_HEADER} (origin access control signs the request).`,
        })
      : undefined;
    for (const { route, url } of props.streaming) {
      additionalBehaviors[pathPattern(route.path)] = {
        ...uncached,
        origin: FunctionUrlOrigin.withOriginAccessControl(url, { readTimeout: STREAM_READ_TIMEOUT }),
        allowedMethods: AllowedMethods.ALLOW_GET_HEAD_OPTIONS,
        functionAssociations: [{ function: clientAuthorization!, eventType: FunctionEventType.VIEWER_REQUEST }],
      };
    }

    // The public feed's media (shared/storage/public-urls.ts): one behaviour per bucket prefix the
    // feed links to (`/posts/*`, `/avatars/*`, so a URL's path is the object key and nothing is
    // rewritten), from the bucket through origin access control, answering only CloudFront signed URLs
    // of the key group. Cached (the objects never change: every upload and rendition has a new key);
    // range requests pass to S3 (video seeking).
    let mediaKey: PublicKey | undefined;
    if (config.mediaSigning && props.media) {
      mediaKey = new PublicKey(this, 'MediaPublicKey', {
        encodedKey: config.mediaSigning.publicKey,
        comment: `${config.prefix}: verifies the public feed's signed media URLs`,
      });
      const keyGroup = new KeyGroup(this, 'MediaKeyGroup', {
        items: [mediaKey],
        comment: `${config.prefix}: signers of the public feed's media URLs`,
      });
      const bucket = Bucket.fromBucketAttributes(this, 'MediaBucket', {
        bucketName: props.media.bucketName,
        bucketArn: props.media.bucketArn,
      });
      const mediaOrigin = S3BucketOrigin.withOriginAccessControl(bucket);
      // Media may be used by the website's scripts (any origin, no credentials: the URL is the
      // permission), and browsers keep them: every object's key is new, and the URL of one stays the
      // same for its signing window (shared/storage/public-urls.ts).
      // Media share the API's host, so nothing served from the bucket may run as a page there: the
      // sandbox policy and nosniff on every answer (the object's own type is the verified one, and
      // documents carry their stored `Content-Disposition: attachment`; shared/storage/media-headers.ts).
      const mediaHeaders = new ResponseHeadersPolicy(this, 'MediaHeaders', {
        comment: `${config.prefix}: public media: security headers, sandbox, CORS for any origin, cacheable`,
        securityHeadersBehavior: {
          ...SECURITY_HEADERS,
          contentSecurityPolicy: { contentSecurityPolicy: MEDIA_CONTENT_SECURITY_POLICY, override: true },
        },
        corsBehavior: {
          accessControlAllowOrigins: ['*'],
          accessControlAllowCredentials: false,
          accessControlAllowHeaders: ['range'],
          accessControlAllowMethods: ['GET', 'HEAD'],
          accessControlExposeHeaders: ['content-length', 'content-range', 'etag'],
          accessControlMaxAge: Duration.minutes(10),
          originOverride: true,
        },
        customHeadersBehavior: {
          customHeaders: [{ header: 'cache-control', value: MEDIA_CACHE_CONTROL, override: true }],
        },
      });
      for (const prefix of PUBLIC_MEDIA_PREFIXES) {
        additionalBehaviors[`/${prefix}*`] = {
          origin: mediaOrigin,
          allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
          cachePolicy: CachePolicy.CACHING_OPTIMIZED,
          viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
          responseHeadersPolicy: mediaHeaders,
          trustedKeyGroups: [keyGroup],
        };
      }
    }

    this.distribution = new Distribution(this, 'Distribution', {
      comment: `${config.prefix}: the service's one base address`,
      defaultBehavior: { ...apiBehaviour, origin: apiOrigin, allowedMethods: AllowedMethods.ALLOW_ALL },
      additionalBehaviors,
      httpVersion: HttpVersion.HTTP2_AND_3,
      priceClass: PriceClass.PRICE_CLASS_100,
      ...(config.domain
        ? {
            domainNames: [config.domain.name],
            certificate: Certificate.fromCertificateArn(this, 'Certificate', config.domain.certificateArn),
            minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021,
          }
        : {}),
    });
    if (mediaKey) {
      Annotations.of(this.distribution).acknowledgeWarning(
        '@aws-cdk/aws-cloudfront-origins:updateImportedBucketPolicyOac',
        'The data stack owns the bucket policy and grants CloudFront read access to the public media prefixes itself (infra/stacks/data-stack.ts).',
      );
    }
    if (!config.domain) {
      acknowledge(
        this.distribution,
        'AwsSolutions-CFR4',
        'Without workplace:domainName the distribution uses its cloudfront.net certificate, whose viewer TLS policy CloudFront fixes; with a custom domain the minimum is TLSv1.2_2021.',
      );
    }
    acknowledge(
      this.distribution,
      'AwsSolutions-CFR1',
      'An internal company service used from wherever staff are: no geographic restriction (sign-in is required for everything but health and the reference page).',
    );
    acknowledge(
      this.distribution,
      'AwsSolutions-CFR2',
      'No AWS WAF by default (its fixed monthly cost is out of proportion for one company); sign-in attempts are throttled by the service itself. Attach a web ACL to the distribution where policy requires one.',
    );
    acknowledge(
      this.distribution,
      'AwsSolutions-CFR3',
      'Every request is logged where it is served: the HTTP API access log (without caller addresses, for grievance anonymity) and the stream function log. CloudFront standard logs would record caller addresses.',
    );

    this.baseUrl = `https://${config.domain?.name ?? this.distribution.distributionDomainName}`;
    new CfnOutput(this, 'BaseUrl', {
      value: this.baseUrl,
      description: 'The base address of every route, the live-update stream included ({base_url}).',
    });
    if (mediaKey) {
      // Read by the office-updates functions at run time (they are deployed before this stack).
      new StringParameter(this, 'MediaSigning', {
        parameterName: mediaSigningParameterName(config.prefix),
        description:
          'Base URL and key pair id of the public feed media URLs (shared/storage/public-urls.ts), and the distribution erased media are invalidated on (shared/storage/media-invalidation.ts).',
        stringValue: this.toJsonString({
          baseUrl: this.baseUrl,
          keyPairId: mediaKey.publicKeyId,
          distributionId: this.distribution.distributionId,
        }),
      });
    }
    if (config.domain) {
      new CfnOutput(this, 'DistributionDomainName', {
        value: this.distribution.distributionDomainName,
        description: `Point ${config.domain.name} (CNAME, or a Route 53 alias) at this.`,
      });
    }
  }

  /** The distribution's 5xx alarm, here (only in us-east-1, where CloudFront's metrics are). */
  addErrorAlarm(topicArn: string) {
    return distributionErrorsAlarm(this, this.distribution.distributionId, topicArn);
  }
}
