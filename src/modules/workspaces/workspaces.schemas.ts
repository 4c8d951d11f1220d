import { Type, type Static, type TSchema } from 'typebox';
import { Id, Instant, Nullable } from '../../http/schemas.js';
import { BrandingPatchBody, BrandingSchema, LogoSchema } from '../branding/branding.schemas.js';

export const RoleSchema = Type.Enum(['owner', 'admin', 'member'], { $id: 'WorkspaceRole', description: 'Role in a workspace.' });

const Name = Type.String({ minLength: 1, maxLength: 100 });

export const RatesVisibleToSchema = Type.Enum(['admins', 'members'], {
  $id: 'RatesVisibleTo',
  description: 'Who may see rates and amounts in the workspace: its admins and owners, or every member.',
});

const Currency = Type.String({
  pattern: '^[A-Z]{3}$',
  description: 'ISO 4217 code of every amount in the workspace, e.g. EUR, USD, JPY.',
});

export const WorkspaceSchema = Type.Object(
  {
    id: Id,
    name: Type.String(),
    role: Type.Enum(['owner', 'admin', 'member'], {
      description: 'The caller\'s role; an instance admin who is not a member sees "owner", the role they act with.',
    }),
    currency: Type.String({ description: 'ISO 4217 code of every amount in the workspace (default EUR).' }),
    ratesVisibleTo: RatesVisibleToSchema,
    branding: BrandingSchema,
    createdAt: Instant,
  },
  {
    $id: 'Workspace',
    examples: [
      {
        id: '01a1f3c2-6f00-7a00-8b00-1a2b3c4d5e6f',
        name: 'Acme Studio',
        role: 'owner',
        currency: 'EUR',
        ratesVisibleTo: 'admins',
        branding: { displayName: 'Acme Studio', accentColor: '#1f5fbf', footer: '', logo: null },
        createdAt: '2026-11-02T08:00:00.000Z',
      },
    ],
  },
);
export type Workspace = Static<typeof WorkspaceSchema>;

export const CreateWorkspaceBody = Type.Object({ name: Name }, { additionalProperties: false });
export type CreateWorkspaceInput = Static<typeof CreateWorkspaceBody>;

export const PatchWorkspaceBody = Type.Object(
  {
    name: Type.Optional(Name),
    currency: Type.Optional(Currency),
    ratesVisibleTo: Type.Optional(RatesVisibleToSchema),
    branding: Type.Optional(BrandingPatchBody),
  },
  { additionalProperties: false },
);
export type PatchWorkspaceInput = Static<typeof PatchWorkspaceBody>;

export const MemberSchema = Type.Object(
  {
    userId: Id,
    name: Type.String(),
    email: Type.String(),
    imageUrl: Nullable(Type.String()),
    role: RoleSchema,
  },
  { $id: 'WorkspaceMember' },
);
export type Member = Static<typeof MemberSchema>;

export const PutMemberBody = Type.Object({ role: RoleSchema }, { additionalProperties: false });
export type PutMemberInput = Static<typeof PutMemberBody>;

export const MemberParams = Type.Object({ id: Id, userId: Id });

/** The named schemas of this feature, in the order of `components.schemas` (src/http/components.ts). */
export const WORKSPACE_SCHEMAS: readonly TSchema[] = [
  WorkspaceSchema,
  BrandingSchema,
  LogoSchema,
  RoleSchema,
  RatesVisibleToSchema,
  MemberSchema,
];

/** How a workspace route answers someone outside the workspace, as route descriptions say it. */
export const NOT_MEMBER = 'A workspace the caller is not a member of answers 404, as if it did not exist.';
