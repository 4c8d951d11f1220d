/** Branding's schemas; the workspaces feature names them (WORKSPACE_SCHEMAS), as the workspace object holds them. */
import { Type, type Static } from 'typebox';
import { Id, Nullable } from '../../http/schemas.js';
import { ACCENT_COLOR_PATTERN, BRANDING_LIMITS } from '../../../packages/document/src/index.js';

export const LogoSchema = Type.Object(
  {
    url: Type.String({
      description: 'Where the logo is served, public and same-origin: a URL that changes with the logo, cached for good.',
    }),
    width: Type.Integer({ minimum: 1, maximum: 512 }),
    height: Type.Integer({ minimum: 1, maximum: 512 }),
  },
  { $id: 'WorkspaceLogo', description: 'The logo as the server re-encoded it: a PNG at most 512 x 512 pixels.' },
);

export const BrandingSchema = Type.Object(
  {
    displayName: Nullable(Type.String({ description: 'The name share pages, PDFs and e-mails show; null: none.' })),
    accentColor: Nullable(Type.String({ description: "`#rrggbb` (lower case); null: Chronicle's own." })),
    footer: Type.String({ description: 'Markdown shown at the foot of share pages; empty: none.' }),
    logo: Nullable(LogoSchema),
  },
  {
    $id: 'WorkspaceBranding',
    description: "The workspace's look on its reports' share pages, PDFs and e-mails (a report uses its first workspace's).",
    examples: [
      { displayName: 'Acme Studio', accentColor: '#1f5fbf', footer: 'Acme Studio · [acme.example](https://acme.example)', logo: null },
    ],
  },
);
export type Branding = Static<typeof BrandingSchema>;

/** What `PATCH /workspaces/:id` takes as `branding`: the fields to change, null clearing one. */
export const BrandingPatchBody = Type.Object(
  {
    displayName: Type.Optional(
      Nullable(
        Type.String({
          minLength: 1,
          maxLength: BRANDING_LIMITS.displayName,
          description: '1-100 characters, trimmed; blank is refused. null clears it.',
        }),
      ),
    ),
    accentColor: Type.Optional(
      Nullable(
        Type.String({
          pattern: ACCENT_COLOR_PATTERN,
          description: '`#rrggbb`, with a contrast of at least 4.5:1 with white (WCAG relative luminance). null clears it.',
        }),
      ),
    ),
    footer: Type.Optional(Type.String({ maxLength: BRANDING_LIMITS.footer, description: 'Markdown, 0-500 characters; empty clears it.' })),
  },
  { additionalProperties: false, description: 'The branding fields to change; those left out stay.' },
);
export type BrandingPatchInput = Static<typeof BrandingPatchBody>;

export const LogoParams = Type.Object({ workspaceId: Id });
export const LogoQuery = Type.Object({
  v: Type.Optional(Type.String({ maxLength: 64, description: "The logo's version, as its URL gives it." })),
});
