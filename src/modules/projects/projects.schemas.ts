import { Type, type Static, type TSchema } from 'typebox';
import { Id, Instant } from '../../http/schemas.js';

export const ProjectSchema = Type.Object(
  {
    id: Id,
    workspaceId: Id,
    name: Type.String(),
    clientId: Type.Union([Id, Type.Null()], { description: 'A client of the same workspace, or null.' }),
    billableByDefault: Type.Boolean({ description: 'The `billable` of a new entry on the project when its request leaves it out.' }),
    createdAt: Instant,
  },
  {
    $id: 'Project',
    examples: [
      {
        id: '01a1f3c2-7b10-7c00-8d00-2a3b4c5d6e7f',
        workspaceId: '01a1f3c2-6f00-7a00-8b00-1a2b3c4d5e6f',
        name: 'Website relaunch',
        clientId: '01a1f3c2-7a1e-7c3b-9f00-2b1a4c5d6e7f',
        billableByDefault: true,
        createdAt: '2026-11-02T08:00:00.000Z',
      },
    ],
  },
);
export type Project = Static<typeof ProjectSchema>;

export const ProjectListItemSchema = Type.Object(
  {
    ...ProjectSchema.properties,
    isMember: Type.Boolean({ description: 'Whether the caller is a member of the project.' }),
  },
  { $id: 'ProjectListItem' },
);
export type ProjectListItem = Static<typeof ProjectListItemSchema>;

const Name = Type.String({ minLength: 1, maxLength: 100 });
const ClientId = Type.Union([Id, Type.Null()], { description: 'A client of the same workspace (else 400), or null for none.' });
const BillableByDefault = Type.Boolean({
  description: 'Whether new entries on the project are billable when their request leaves `billable` out; existing entries never change.',
});

export const CreateProjectBody = Type.Object(
  { name: Name, clientId: Type.Optional(ClientId), billableByDefault: Type.Optional(BillableByDefault) },
  { additionalProperties: false },
);
export type CreateProjectInput = Static<typeof CreateProjectBody>;

export const PatchProjectBody = Type.Object(
  { name: Type.Optional(Name), clientId: Type.Optional(ClientId), billableByDefault: Type.Optional(BillableByDefault) },
  { additionalProperties: false },
);
export type PatchProjectInput = Static<typeof PatchProjectBody>;

export const ProjectMemberSchema = Type.Object({ userId: Id, name: Type.String() }, { $id: 'ProjectMember' });
export type ProjectMember = Static<typeof ProjectMemberSchema>;

export const ProjectMemberParams = Type.Object({ id: Id, userId: Id });

/** The named schemas of this feature, in the order of `components.schemas` (src/http/components.ts). */
export const PROJECT_SCHEMAS: readonly TSchema[] = [ProjectSchema, ProjectListItemSchema, ProjectMemberSchema];
