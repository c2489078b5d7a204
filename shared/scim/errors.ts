/** The media type of every SCIM answer, refusals included (RFC 7644 §3.1). */
export const SCIM_CONTENT_TYPE = 'application/scim+json; charset=utf-8';

/** The SCIM error schema (RFC 7644 §3.12). */
export const SCIM_ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** A refusal answered in SCIM's error body: `status` as a string and, where RFC 7644 names one, a `scimType`. */
export class ScimError extends Error {
  constructor(
    readonly status: number,
    detail: string,
    readonly scimType?: string,
    /** A refusal the audit log records (shared/audit/scope.ts), with the member it protected. */
    readonly recordRefusal?: { targetId: string },
  ) {
    super(detail);
  }

  body(): Record<string, unknown> {
    return {
      schemas: [SCIM_ERROR_SCHEMA],
      status: String(this.status),
      ...(this.scimType ? { scimType: this.scimType } : {}),
      detail: this.message,
    };
  }
}

/**
 * Any refusal of a SCIM route as SCIM's error body: a 400 is an `invalidValue` unless the refusal names
 * its own `scimType`.
 */
export const scimRefusal = (status: number, detail: string, scimType = status === 400 ? 'invalidValue' : undefined) =>
  new ScimError(status, detail, scimType).body();
