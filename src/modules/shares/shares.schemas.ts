import { Type, type Static, type TSchema } from 'typebox';
import { Id, Instant, Nullable } from '../../http/schemas.js';
import { PASSCODE_MAX_CHARS, PASSCODE_MAX_INPUT, PASSCODE_MIN_CHARS } from '../../lib/secrets.js';

/** A public share link (docs/api.md "Share links"). The passcode is never part of it, hashed or not. */
export const ShareSchema = Type.Object(
  {
    id: Id,
    reportContentId: Id,
    version: Type.Integer({ minimum: 1, description: 'The number of the version the link serves (now, for a link that follows).' }),
    follows: Type.Union([Type.Literal('latest'), Type.Literal('version')], {
      description:
        "`latest`: the link serves the report's current version, whatever comes after; `version`: the version it was minted over.",
    }),
    token: Type.String({ description: 'Capability token, 22 base64url characters; the public page is /share/<token>.' }),
    url: Type.String({ description: 'The public page: <PUBLIC_BASE_URL>/share/<token>.' }),
    hasPasscode: Type.Boolean(),
    expiresAt: Nullable(Instant),
    revokedAt: Nullable(Instant),
    viewCount: Type.Integer({ minimum: 0 }),
    downloadCount: Type.Integer({
      minimum: 0,
      description: 'Files downloaded through the link (PDF, CSV), counted apart from page views.',
    }),
    lastViewedAt: Nullable(Instant),
    emailAddress: Type.Optional(
      Type.String({
        description: "Only on a link a schedule minted for an outside address (delivery.md §3): its views are that address's.",
      }),
    ),
    createdAt: Instant,
  },
  { $id: 'Share' },
);
export type Share = Static<typeof ShareSchema>;

export const MintShareBody = Type.Object(
  {
    // The 4-128 rule counts the NFC form, so the service checks it; this bound only keeps out
    // input that cannot be a passcode however it was typed.
    passcode: Type.Optional(
      Type.String({
        maxLength: PASSCODE_MAX_INPUT,
        description: `${PASSCODE_MIN_CHARS}-${PASSCODE_MAX_CHARS} characters, counted after Unicode NFC normalisation. Stored as a PBKDF2 hash; never returned.`,
      }),
    ),
    expiresInDays: Type.Optional(Type.Integer({ minimum: 1, maximum: 365, description: 'Omitted: the link never expires.' })),
    follows: Type.Optional(
      Type.Union([Type.Literal('latest'), Type.Literal('version')], {
        default: 'version',
        description:
          "`latest` (a report's owner only): the link always serves the report's newest version, an edit or a scheduled run showing on the next view. A recipient's link serves the delivered version.",
      }),
    ),
  },
  { $id: 'MintShareBody', additionalProperties: false, description: 'May be omitted entirely: a link without passcode or expiry.' },
);
export type MintShareInput = Static<typeof MintShareBody>;

/** The named schemas of this feature, in the order of `components.schemas` (src/http/components.ts). */
export const SHARE_SCHEMAS: readonly TSchema[] = [ShareSchema, MintShareBody];
