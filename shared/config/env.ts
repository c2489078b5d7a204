/**
 * Every setting the service reads from its environment, in one place. Values are read lazily so the
 * local runtime can set them (ports, generated secrets) before the first handler runs.
 */
const read = (name: string, fallback: string): string => {
  const v = process.env[name];
  return v === undefined || v === '' ? fallback : v;
};

/** A whole number of days of at least `min`; anything else is a configuration error. */
const wholeDays = (name: string, fallback: number, min: number): number => {
  const n = Number(read(name, String(fallback)));
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be a whole number of days, at least ${min}`);
  return n;
};

export const env = {
  get tableName() {
    return read('TABLE_NAME', 'workplace');
  },
  get bucketName() {
    return read('BUCKET_NAME', 'workplace-media');
  },
  get region() {
    return read('AWS_REGION', 'us-east-1');
  },
  get companyTimezone() {
    return read('COMPANY_TIMEZONE', 'UTC');
  },
  /** Comma-separated origins the web client is served from; `*` allows any (the local default). */
  get allowedOrigins(): string[] {
    return read('ALLOWED_ORIGINS', '*')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  },
  get logLevel() {
    return read('LOG_LEVEL', 'INFO');
  },
  /** `local` inside `npm start` (enables the outbox transports); `aws` when deployed. */
  get runtime(): 'local' | 'aws' {
    return read('APP_RUNTIME', 'aws') === 'local' ? 'local' : 'aws';
  },
  /** The sender of the service's e-mail (meeting invitations); a verified SES identity when deployed. */
  get mailFrom() {
    return read('MAIL_FROM', 'Workplace <no-reply@example.com>');
  },
  /**
   * External addresses one person's meeting invitations, updates and cancellations may reach per UTC
   * day (shared/calendar/meetings/mail-quota.ts): the invitations go out from the company's own
   * sender, so without a bound any member could mail anyone through it.
   */
  get meetingExternalMailPerDay(): number {
    const name = 'MEETING_EXTERNAL_RECIPIENTS_PER_DAY';
    const n = Number(read(name, '200'));
    if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number, at least 0`);
    return n;
  },
  /**
   * How often an open live-update stream polls a replica of the event log's head, in milliseconds
   * (on average: each wait is jittered). With the replica count it sets the read load per partition
   * key (docs/data-model.md, "Live updates").
   */
  get livePollMs(): number {
    return Number(read('LIVE_POLL_MS', '1000'));
  },
  /**
   * How many replicas of the event log's head the change feed writes and stream connections poll
   * (1 to 64). Each replica is its own partition key: the read load per key is the connections'
   * polls divided by this (docs/data-model.md, "Live updates"); each batch writes every replica.
   */
  get liveReplicas(): number {
    return Math.min(64, Math.max(1, Math.floor(Number(read('LIVE_REPLICAS', '32'))) || 32));
  },
  /**
   * Whether stream connections in one process share identical reads (`shared/live/coalesced-reads.ts`).
   * `false` makes every local stream read as its own Lambda execution environment does when deployed
   * (the bench's stream-scale scenario).
   */
  get liveCoalescedReads(): boolean {
    return read('LIVE_COALESCED_READS', 'true') !== 'false';
  },
  /**
   * How many live streams one person may hold open at once; opening one more ends the oldest (at its
   * next poll) rather than refusing the new one (shared/live/stream-leases.ts).
   */
  get liveStreamsPerPerson(): number {
    return Math.max(1, Number(read('LIVE_STREAMS_PER_PERSON', '10')));
  },
  /**
   * The bounds of one stream connection's life, in seconds: each connection draws its own end between
   * them (so a deploy or a crowd that connected together does not reconnect in the same second), and
   * ends then whether or not its client is still there. Deployed nothing tells a streaming function
   * that its client left, so this is also how long an orphaned execution can run. At least 300 by
   * decision (a connection stays open 5 minutes); the test runtime and the bench compress it.
   */
  get liveStreamMinSeconds(): number {
    return Number(read('LIVE_STREAM_MIN_SECONDS', '300'));
  },
  get liveStreamMaxSeconds(): number {
    return Math.max(Number(read('LIVE_STREAM_MIN_SECONDS', '300')), Number(read('LIVE_STREAM_MAX_SECONDS', '360')));
  },
  /** SNS platform application for FCM (web and android push); deployed only. */
  get pushFcmApplicationArn(): string | undefined {
    return process.env.PUSH_FCM_APPLICATION_ARN || undefined;
  },
  /** SNS platform application for APNs (ios push); deployed only. */
  get pushApnsApplicationArn(): string | undefined {
    return process.env.PUSH_APNS_APPLICATION_ARN || undefined;
  },
  /** Days from raising a grievance to its acknowledgement deadline (docs/data-model.md, Grievances: handling). */
  get grievanceAckDays(): number {
    return wholeDays('GRIEVANCE_ACK_DAYS', 7, 1);
  },
  /** Days from the acknowledgement to the feedback deadline (about three months). */
  get grievanceFeedbackDays(): number {
    return wholeDays('GRIEVANCE_FEEDBACK_DAYS', 90, 1);
  },
  /**
   * Days a finished grievance is kept before the retention sweep erases it; undefined (unset) keeps
   * them for ever. At least 30 when set: a shorter value is a configuration error, not a silent clamp.
   */
  get grievanceRetentionDays(): number | undefined {
    const raw = process.env.GRIEVANCE_RETENTION_DAYS;
    return raw === undefined || raw === '' ? undefined : wholeDays('GRIEVANCE_RETENTION_DAYS', 0, 30);
  },
  /**
   * Days after a person's deactivation before the people retention erases them (shared/data-rights/
   * retention.ts); undefined (unset) never erases by itself. At least 30 when set: a shorter value is a
   * configuration error, not a silent clamp.
   */
  get peopleRetentionDays(): number | undefined {
    const raw = process.env.PEOPLE_RETENTION_DAYS;
    return raw === undefined || raw === '' ? undefined : wholeDays('PEOPLE_RETENTION_DAYS', 0, 30);
  },
  /**
   * Days the admin audit log keeps an entry (shared/audit/): each entry carries the table's TTL
   * attribute set to its time plus this, and DynamoDB erases it after. At least 30.
   */
  get auditRetentionDays(): number {
    return wholeDays('AUDIT_RETENTION_DAYS', 730, 30);
  },
  /**
   * Seconds an erasure gives the change feed to turn its own writes into events before its last pass
   * over the change log (shared/data-rights/erasure.ts); tests shorten it.
   */
  get dataRightsSettleSeconds(): number {
    const n = Number(read('DATA_RIGHTS_SETTLE_SECONDS', '300'));
    return Number.isFinite(n) && n >= 0 ? n : 300;
  },
  get serviceVersion() {
    return read('SERVICE_VERSION', '0.0.0');
  },
  /**
   * Single sign-on with OpenID Connect (docs/sso.md): the identity provider's issuer URL; unset = SSO
   * off. With it, `OIDC_CLIENT_ID` and the client secret (`OIDC_CLIENT_SECRET`, a secret) are needed.
   */
  get oidcIssuer(): string | undefined {
    return process.env.OIDC_ISSUER || undefined;
  },
  get oidcClientId(): string | undefined {
    return process.env.OIDC_CLIENT_ID || undefined;
  },
  /**
   * `off`: members sign in with single sign-on only, once it is configured (docs/sso.md); the
   * break-glass account (`SSO_BREAK_GLASS_EMAIL`, by default `ADMIN_EMAIL`, the first super admin) keeps
   * its password while it is a super admin. Anything else, or SSO unconfigured: passwords work.
   */
  get passwordSignInOff(): boolean {
    return read('PASSWORD_SIGN_IN', 'on') === 'off' && !!this.oidcIssuer && !!this.oidcClientId;
  },
  /**
   * `on`: a person the identity provider vouches for (a verified address on a served domain) who is no
   * member yet becomes one at their first single sign-on (docs/sso.md). Default `off`: only existing
   * members sign in, as a super admin or SCIM provisioned them.
   */
  get ssoCreatesMembers(): boolean {
    return read('SSO_CREATE_MEMBERS', 'off') === 'on';
  },
  /**
   * Distinct reporters after which a reported post or comment is hidden until a moderator reviews it
   * (docs/moderation.md); 0 turns the automatic hiding off.
   */
  get reportHideThreshold(): number {
    const n = Number(read('REPORT_HIDE_THRESHOLD', '5'));
    if (!Number.isInteger(n) || n < 0) throw new Error('REPORT_HIDE_THRESHOLD must be a whole number, 0 or more');
    return n;
  },
  /** Comma-separated e-mail domains the identity provider serves (sign-in by e-mail picks it by domain). */
  get oidcEmailDomains(): string[] {
    return read('OIDC_EMAIL_DOMAINS', '')
      .split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean);
  },
};
