import { Type, type Static, type TSchema } from 'typebox';
import { Id, Instant, Nullable } from '../../http/schemas.js';
import { LOCALE_MAX_LENGTH } from '../../lib/locale.js';

export const UserSchema = Type.Object(
  {
    id: Id,
    name: Type.String(),
    email: Type.String(),
    timezone: Type.String(),
    locale: Type.String({ description: 'BCP 47 language tag, in its canonical form, e.g. en-US.' }),
    imageUrl: Nullable(Type.String()),
    instanceAdmin: Type.Boolean(),
    createdAt: Instant,
  },
  { $id: 'User' },
);
export type User = Static<typeof UserSchema>;

const Name = Type.String({ minLength: 1, maxLength: 100 });
const Email = Type.String({ format: 'email', maxLength: 254 });
const Timezone = Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone name, e.g. Europe/Berlin.' });
const Locale = Type.String({
  minLength: 1,
  maxLength: LOCALE_MAX_LENGTH,
  description: 'BCP 47 language tag the server supports, e.g. en-GB; stored in its canonical form (en-gb becomes en-GB).',
});
// An https: URL with a host: format 'uri' alone accepts `https://`.
const ImageUrl = Nullable(
  Type.String({ format: 'uri', pattern: '^https://[^/?#\\s@]+([/?#]\\S*)?$', maxLength: 2048, description: 'An https: URL.' }),
);

export const CreateUserBody = Type.Object(
  {
    name: Name,
    email: Email,
    timezone: Type.Optional(Timezone),
    locale: Type.Optional(Locale),
    imageUrl: Type.Optional(ImageUrl),
    instanceAdmin: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type CreateUserInput = Static<typeof CreateUserBody>;

export const PatchUserBody = Type.Partial(CreateUserBody, { additionalProperties: false });
export type PatchUserInput = Static<typeof PatchUserBody>;

export const PatchMeBody = Type.Object(
  { name: Type.Optional(Name), timezone: Type.Optional(Timezone), locale: Type.Optional(Locale), imageUrl: Type.Optional(ImageUrl) },
  { additionalProperties: false },
);

const Scopes = Type.Array(Type.Union([Type.Literal('read'), Type.Literal('write')]), {
  minItems: 1,
  maxItems: 2,
  uniqueItems: true,
});

export const CreateTokenBody = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 100 })),
    scopes: Scopes,
    expiresInDays: Type.Optional(Type.Integer({ minimum: 1, maximum: 365 })),
  },
  { $id: 'CreateTokenBody', additionalProperties: false },
);
export type CreateTokenInput = Static<typeof CreateTokenBody>;

export const TokenSchema = Type.Object(
  {
    id: Id,
    name: Type.String(),
    scopes: Scopes,
    createdAt: Instant,
    expiresAt: Nullable(Instant),
  },
  { $id: 'Token' },
);
export type Token = Static<typeof TokenSchema>;

export const CreatedTokenSchema = Type.Object(
  {
    ...TokenSchema.properties,
    token: Type.String({ description: 'The bearer secret; shown only in this response.' }),
  },
  { $id: 'CreatedToken' },
);

/** The named schemas of this feature, in the order of `components.schemas` (src/http/components.ts). */
export const USER_SCHEMAS: readonly TSchema[] = [UserSchema, TokenSchema, CreatedTokenSchema, CreateTokenBody];
