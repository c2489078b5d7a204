import { type EntityItem, entity, shape } from '../db/entity.ts';

/**
 * SCIM's items (docs/scim.md): which members the identity provider provisions. A member is a SCIM
 * User while its link exists; `DELETE` ends the link (the member stays, deactivated).
 *
 * The links are numbered 1…total without gaps (`position`, with a slot item per position), so a list
 * page at any `startIndex` is a read of `count` slots: O(page), with `totalResults` exact. Unlinking
 * moves the last link into the freed position in the same transaction as the total.
 */
export const ScimUser = entity({
  name: 'ScimUser',
  fields: shape<{
    userId: string;
    position: number;
    /** The provider's own id for the person (`externalId`), unique among links (its claim below). */
    externalId?: string;
    /** The name parts and department as the provider sent them (the profile keeps the whole name, a known department). */
    givenName?: string;
    familyName?: string;
    department?: string;
    createdAt: string;
    updatedAt: string;
  }>(),
  key: { pk: ['SCIMUSER', 'userId'], sk: ['SCIMUSER'] },
});
export type ScimUserItem = EntityItem<typeof ScimUser>;

/** Position `position` of the links' numbering: whose link stands there. */
export const ScimUserSlot = entity({
  name: 'ScimUserSlot',
  fields: shape<{ position: number; userId: string }>(),
  key: { pk: ['SCIMSLOT', { field: 'position', as: (p: number) => String(p) }], sk: ['SCIMSLOT'] },
});

/** How many links there are: moved in the transaction of every link and unlink. */
export const ScimUserTotal = entity({
  name: 'ScimUserTotal',
  fields: shape<{ total: number }>(),
  key: { pk: ['SCIM'], sk: ['USERS'] },
});

/** The claim of an `externalId` by one link (a `filter=externalId eq "…"` is a read of it). */
export const ScimExternalId = entity({
  name: 'ScimExternalId',
  fields: shape<{ externalId: string; userId: string }>(),
  key: { pk: ['SCIMEXT', 'externalId'], sk: ['SCIMEXT'] },
});

/**
 * What a SCIM `DELETE` ended (docs/scim.md): the provider's `externalId` of the member's link then
 * (absent when it sent none). A later `POST /Users` with their address and another `externalId` is a
 * new person, not them: the address is recycled, and they keep their account and data, deactivated.
 */
export const ScimEndedLink = entity({
  name: 'ScimEndedLink',
  fields: shape<{ userId: string; externalId?: string; endedAt: string }>(),
  key: { pk: ['SCIMUSER', 'userId'], sk: ['SCIMENDED'] },
});
