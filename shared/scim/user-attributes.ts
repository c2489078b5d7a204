import { ENTERPRISE_USER_SCHEMA, USER_SCHEMA } from './discovery.ts';
import { ScimError } from './errors.ts';

/**
 * A SCIM User's attributes this service keeps, flat (RFC 7643 §4.1 and the enterprise extension §4.3).
 * A resource (`POST`, `PUT`) and a `PATCH` are both read into this shape: a PATCH applies its operations
 * to the user's current attributes, and the result is written as a `PUT` of it would be. Attributes
 * this service does not keep (addresses, phone numbers, locale…) are accepted and not stored.
 */
export interface UserAttributes {
  userName: string;
  externalId?: string;
  active: boolean;
  displayName?: string;
  givenName?: string;
  familyName?: string;
  formatted?: string;
  title?: string;
  email?: string;
  department?: string;
  /** The manager's SCIM id (= their member id); null: none. */
  manager: string | null;
}

const ENTERPRISE = ENTERPRISE_USER_SCHEMA.toLowerCase();

const invalidValue = (detail: string) => new ScimError(400, detail, 'invalidValue');

const text = (v: unknown, path: string): string | undefined => {
  if (v === null || v === undefined) return undefined;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  throw invalidValue(`${path} must be a string.`);
};

/** `active` as a boolean, or the strings "True"/"False" Entra ID sends. */
function bool(v: unknown, path: string): boolean {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string' && /^(true|false)$/i.test(v.trim())) return v.trim().toLowerCase() === 'true';
  throw invalidValue(`${path} must be true or false.`);
}

/** A multi-valued `emails`: the primary one's value, else the first. */
function emailOf(v: unknown): string | undefined {
  if (!Array.isArray(v)) throw invalidValue('emails must be a list.');
  const entries = v.filter((e): e is Record<string, unknown> => !!e && typeof e === 'object');
  const chosen = entries.find((e) => e.primary === true || e.primary === 'true') ?? entries[0];
  return chosen ? text(chosen.value, 'emails.value') : undefined;
}

/** The manager as the extension sends it: `{ value }`, a bare id, or nothing. */
function managerOf(v: unknown): string | null {
  if (v === null || v === undefined || v === '') return null;
  if (typeof v === 'object' && !Array.isArray(v))
    return text((v as { value?: unknown }).value, 'manager.value') || null;
  return text(v, 'manager') || null;
}

/**
 * Sets (`value`) or clears (`undefined`) one attribute named by a path, case-insensitively; paths of
 * attributes not kept are ignored. An object at a path above attributes (`name`, the extension's URN)
 * sets each of its members.
 */
function setPath(a: UserAttributes, rawPath: string, value: unknown): void {
  let path = rawPath.trim().toLowerCase();
  if (path.startsWith(`${USER_SCHEMA.toLowerCase()}:`)) path = path.slice(USER_SCHEMA.length + 1);
  const clear = value === undefined;
  if ((path === 'name' || path === ENTERPRISE) && (clear || (typeof value === 'object' && value !== null))) {
    const members = clear ? {} : (value as Record<string, unknown>);
    if (clear) {
      if (path === 'name') {
        a.givenName = a.familyName = a.formatted = undefined;
      } else {
        a.department = undefined;
        a.manager = null;
      }
      return;
    }
    for (const [k, v] of Object.entries(members)) setPath(a, path === 'name' ? `name.${k}` : `${ENTERPRISE}:${k}`, v);
    return;
  }
  switch (path) {
    case 'username':
      if (clear) throw new ScimError(400, 'userName is required.', 'mutability');
      a.userName = text(value, 'userName') ?? '';
      return;
    case 'externalid':
      a.externalId = text(value, 'externalId') || undefined;
      return;
    case 'active':
      a.active = clear ? false : bool(value, 'active');
      return;
    case 'displayname':
      a.displayName = text(value, 'displayName');
      return;
    case 'title':
      a.title = text(value, 'title');
      return;
    case 'name.givenname':
      a.givenName = text(value, 'name.givenName');
      return;
    case 'name.familyname':
      a.familyName = text(value, 'name.familyName');
      return;
    case 'name.formatted':
      a.formatted = text(value, 'name.formatted');
      return;
    case 'emails':
      a.email = clear ? undefined : emailOf(value);
      return;
    case `${ENTERPRISE}:department`:
      a.department = text(value, 'department');
      return;
    case `${ENTERPRISE}:manager`:
    case `${ENTERPRISE}:manager.value`:
      a.manager = clear ? null : managerOf(value);
      return;
  }
  // `emails[type eq "work"].value`, `emails[primary eq true].value`: the sign-in address.
  if (/^emails\[[^\]]*\]\.value$/.test(path)) a.email = text(value, 'emails.value');
}

/** A whole resource (`POST`, `PUT`) as attributes: what it leaves out is cleared. */
export function fromResource(body: Record<string, unknown>): UserAttributes {
  const a: UserAttributes = { userName: '', active: true, manager: null };
  for (const [key, value] of Object.entries(body)) {
    if (['schemas', 'id', 'meta', 'password', 'groups'].includes(key)) continue;
    if (key.toLowerCase() === 'active') a.active = value === undefined || value === null ? true : bool(value, 'active');
    else setPath(a, key, value ?? undefined);
  }
  return required(a);
}

interface PatchOperation {
  op?: unknown;
  path?: unknown;
  value?: unknown;
}

/** The attributes after a PATCH's operations (RFC 7644 §3.5.2; `op` case-insensitive, with or without `path`). */
export function applyPatch(current: UserAttributes, body: Record<string, unknown>): UserAttributes {
  const a: UserAttributes = { ...current };
  for (const operation of operationsOf(body)) {
    const op = String(operation.op ?? '').toLowerCase();
    if (op !== 'add' && op !== 'replace' && op !== 'remove')
      throw invalidValue(`Unknown PATCH op ${JSON.stringify(operation.op)}: use add, replace or remove.`);
    const path = typeof operation.path === 'string' ? operation.path : undefined;
    if (op === 'remove') {
      if (!path) throw new ScimError(400, 'A remove operation needs a path.', 'noTarget');
      setPath(a, path, undefined);
    } else if (path) {
      setPath(a, path, operation.value);
    } else {
      if (!operation.value || typeof operation.value !== 'object' || Array.isArray(operation.value))
        throw invalidValue('An operation without a path needs an object value.');
      for (const [k, v] of Object.entries(operation.value as Record<string, unknown>)) setPath(a, k, v);
    }
  }
  return required(a);
}

/** The operations of a PATCH body (`Operations`, any case), or 400. */
export function operationsOf(body: Record<string, unknown>): PatchOperation[] {
  const key = Object.keys(body).find((k) => k.toLowerCase() === 'operations');
  const ops = key ? body[key] : undefined;
  if (!Array.isArray(ops) || ops.some((o) => !o || typeof o !== 'object'))
    throw invalidValue('A PATCH needs Operations: a list of { op, path?, value? }.');
  return ops as PatchOperation[];
}

function required(a: UserAttributes): UserAttributes {
  if (!a.userName.trim()) throw invalidValue('userName is required.');
  return a;
}

/** The profile's name: `displayName`, else `name.formatted`, else the name's parts, else the address's local part. */
export function displayNameOf(a: UserAttributes): string {
  const parts = [a.givenName, a.familyName]
    .map((p) => p?.trim())
    .filter(Boolean)
    .join(' ');
  return (a.displayName?.trim() || a.formatted?.trim() || parts || a.userName.split('@')[0] || a.userName).trim();
}

/**
 * The sign-in address: `userName`, which must be an e-mail address (a `filter=userName eq "…"` is a read
 * of the address's claim, so they cannot differ).
 */
export function signInAddressOf(a: UserAttributes): string {
  const address = a.userName.trim().toLowerCase();
  if (!EMAIL.test(address) || address.length > 254)
    throw invalidValue('userName must be an e-mail address: it is the sign-in address.');
  return address;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
