import { Type, type Static, type TSchema } from 'typebox';
import { Id, Instant } from '../../http/schemas.js';

const Name = Type.String({
  minLength: 1,
  maxLength: 100,
  description: 'Unique in the workspace, ignoring case.',
});

export const ClientSchema = Type.Object(
  {
    id: Id,
    workspaceId: Id,
    name: Type.String(),
    archived: Type.Boolean({ description: 'An archived client stays on its projects; it is only set aside.' }),
    createdAt: Instant,
    updatedAt: Instant,
  },
  {
    $id: 'Client',
    examples: [
      {
        id: '0195d2c4-7a1e-7c3b-9f00-2b1a4c5d6e7f',
        workspaceId: '0195d2c4-6f00-7a00-8b00-1a2b3c4d5e6f',
        name: 'Northwind Traders',
        archived: false,
        createdAt: '2026-11-02T08:00:00.000Z',
        updatedAt: '2026-11-02T08:00:00.000Z',
      },
    ],
  },
);
export type Client = Static<typeof ClientSchema>;

export const CreateClientBody = Type.Object({ name: Name }, { additionalProperties: false });
export type CreateClientInput = Static<typeof CreateClientBody>;

export const PatchClientBody = Type.Object(
  { name: Type.Optional(Name), archived: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);
export type PatchClientInput = Static<typeof PatchClientBody>;

/** The named schemas of this feature, in the order of `components.schemas` (src/http/components.ts). */
export const CLIENT_SCHEMAS: readonly TSchema[] = [ClientSchema];
