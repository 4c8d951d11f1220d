import { Type, type Static, type TSchema } from 'typebox';
import { Id, Instant } from '../../http/schemas.js';
import { UserSchema } from '../users/users.schemas.js';

/** Password rules: at least 12 and at most 256 characters; anything else is up to the user. */
export const PASSWORD_MIN_LENGTH = 12;
const NewPassword = Type.String({
  minLength: PASSWORD_MIN_LENGTH,
  maxLength: 256,
  description: `${PASSWORD_MIN_LENGTH} to 256 characters.`,
});
const AnyPassword = Type.String({ minLength: 1, maxLength: 256 });

export const SignInBody = Type.Object(
  { email: Type.String({ minLength: 1, maxLength: 254 }), password: AnyPassword },
  { additionalProperties: false },
);
export type SignInInput = Static<typeof SignInBody>;

export const SessionSchema = Type.Object(
  {
    id: Id,
    createdAt: Instant,
    lastSeenAt: Instant,
    expiresAt: Type.String({
      format: 'date-time',
      description: 'When the session ends if unused: the earlier of its idle and absolute limits.',
    }),
    userAgent: Type.String(),
    current: Type.Boolean({ description: 'Whether this is the session making the request.' }),
  },
  { $id: 'Session' },
);
export type Session = Static<typeof SessionSchema>;

export const SignedInSchema = Type.Object({ user: UserSchema, session: SessionSchema }, { $id: 'SignedIn' });
export type SignedIn = Static<typeof SignedInSchema>;

export const PasswordLinkSchema = Type.Object(
  {
    url: Type.String({ description: 'The set-password page with the one-time secret in its fragment; shown once.' }),
    expiresAt: Instant,
    emailed: Type.Optional(Type.Boolean({ description: 'Whether the link was also e-mailed to the user (`email: true`).' })),
  },
  { $id: 'PasswordLink' },
);
export type PasswordLink = Static<typeof PasswordLinkSchema>;

/** Optional: a request with no body makes a link and shows it only. */
export const PasswordLinkBody = Type.Object(
  { email: Type.Optional(Type.Boolean({ description: "Also e-mail the link to the user's address (delivery.md §3)." })) },
  { additionalProperties: false },
);
export type PasswordLinkInput = Static<typeof PasswordLinkBody>;

export const RedeemLinkBody = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 128 }), password: NewPassword },
  { additionalProperties: false },
);
export type RedeemLinkInput = Static<typeof RedeemLinkBody>;

export const ChangePasswordBody = Type.Object({ currentPassword: AnyPassword, newPassword: NewPassword }, { additionalProperties: false });
export type ChangePasswordInput = Static<typeof ChangePasswordBody>;

/** The named schemas of this feature, in the order of `components.schemas` (src/http/components.ts). */
export const AUTH_SCHEMAS: readonly TSchema[] = [SessionSchema, SignedInSchema, PasswordLinkSchema];
