import { Type, type Static, type TSchema } from 'typebox';
import { Id, Instant } from '../../http/schemas.js';

export const ProjectSchema = Type.Object(
  {
    id: Id,
    workspaceId: Id,
    name: Type.String(),
    createdAt: Instant,
  },
  { $id: 'Project' },
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

export const CreateProjectBody = Type.Object({ name: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false });
export type CreateProjectInput = Static<typeof CreateProjectBody>;

export const ProjectMemberSchema = Type.Object({ userId: Id, name: Type.String() }, { $id: 'ProjectMember' });
export type ProjectMember = Static<typeof ProjectMemberSchema>;

export const ProjectMemberParams = Type.Object({ id: Id, userId: Id });

/** The named schemas of this feature, in the order of `components.schemas` (src/http/components.ts). */
export const PROJECT_SCHEMAS: readonly TSchema[] = [ProjectSchema, ProjectListItemSchema, ProjectMemberSchema];
