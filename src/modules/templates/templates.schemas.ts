import { Type, type Static, type TSchema } from 'typebox';
import { FiltersInput } from '../reports/reports.schemas.js';
import { Id, Instant } from '../../http/schemas.js';

export const TemplateSchema = Type.Object(
  {
    id: Id,
    name: Type.String(),
    description: Type.String(),
    body: Type.String({ description: 'Liquid source of the report body.' }),
    nameTemplate: Type.String({ description: "Liquid for the suggested report name; '' when not defined." }),
    noteTemplate: Type.String({ description: "Liquid for the suggested report note; '' when not defined." }),
    enabled: Type.Boolean(),
    builtIn: Type.Boolean({ description: 'Seeded with the installation.' }),
    createdAt: Instant,
    updatedAt: Instant,
  },
  { $id: 'Template' },
);
export type Template = Static<typeof TemplateSchema>;

const fields = {
  name: Type.String({ minLength: 1, maxLength: 100 }),
  description: Type.String({ maxLength: 1000 }),
  body: Type.String({ minLength: 1, maxLength: 100_000, description: 'Liquid.' }),
  nameTemplate: Type.String({ maxLength: 500, description: 'Liquid.' }),
  noteTemplate: Type.String({ maxLength: 5000, description: 'Liquid.' }),
  enabled: Type.Boolean(),
};

export const CreateTemplateBody = Type.Object(
  {
    name: fields.name,
    description: Type.Optional(fields.description),
    body: fields.body,
    nameTemplate: Type.Optional(fields.nameTemplate),
    noteTemplate: Type.Optional(fields.noteTemplate),
    enabled: Type.Optional(fields.enabled),
  },
  { additionalProperties: false },
);
export type CreateTemplateInput = Static<typeof CreateTemplateBody>;

export const PatchTemplateBody = Type.Partial(CreateTemplateBody, { additionalProperties: false });
export type PatchTemplateInput = Static<typeof PatchTemplateBody>;

export const ListTemplatesQuery = Type.Object(
  {
    includeDisabled: Type.Optional(Type.Boolean({ default: false, description: 'Instance admins only: list disabled templates too.' })),
  },
  { additionalProperties: false },
);
export type ListTemplatesInput = Static<typeof ListTemplatesQuery>;

/** An unsaved template rendered against filters, as a report preview would render a stored one. */
export const PreviewTemplateBody = Type.Object(
  {
    body: fields.body,
    nameTemplate: Type.Optional(fields.nameTemplate),
    noteTemplate: Type.Optional(fields.noteTemplate),
    filters: FiltersInput,
    name: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: 'The report name the template sees; "Template preview" when absent.' }),
    ),
  },
  { additionalProperties: false },
);
export type PreviewTemplateInput = Static<typeof PreviewTemplateBody>;

/** The named schemas of this feature, in the order of `components.schemas` (src/http/components.ts). */
export const TEMPLATE_SCHEMAS: readonly TSchema[] = [TemplateSchema];
