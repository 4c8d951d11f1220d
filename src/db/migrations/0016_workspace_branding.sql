-- Workspace branding (docs/api.md "Branding"): a display name, an accent colour and a footer on the
-- workspace, a version that goes up with every change (the share page's cache key), and the logo
-- as the server re-encoded it (a PNG at most 512 x 512, its sha256 naming it in its URL).
CREATE TABLE "workspace_logos" (
	"workspace_id" text PRIMARY KEY NOT NULL,
	"png" bytea NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"sha256" text NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workspace_logos_size" CHECK (octet_length("workspace_logos"."png") between 1 and 2097152),
	CONSTRAINT "workspace_logos_width" CHECK ("workspace_logos"."width" between 1 and 512),
	CONSTRAINT "workspace_logos_height" CHECK ("workspace_logos"."height" between 1 and 512),
	CONSTRAINT "workspace_logos_sha256_hex" CHECK ("workspace_logos"."sha256" ~ '^[0-9a-f]{64}$')
);
--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "branding_display_name" text;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "branding_accent_color" text;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "branding_footer" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "branding_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "workspace_logos" ADD CONSTRAINT "workspace_logos_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspaces" ADD CONSTRAINT "workspaces_branding_display_name_valid" CHECK ("workspaces"."branding_display_name" is null or (char_length("workspaces"."branding_display_name") between 1 and 100 and "workspaces"."branding_display_name" = btrim("workspaces"."branding_display_name")));--> statement-breakpoint
ALTER TABLE "workspaces" ADD CONSTRAINT "workspaces_branding_accent_color_valid" CHECK ("workspaces"."branding_accent_color" ~ '^#[0-9a-f]{6}$');--> statement-breakpoint
ALTER TABLE "workspaces" ADD CONSTRAINT "workspaces_branding_footer_length" CHECK (char_length("workspaces"."branding_footer") <= 500);--> statement-breakpoint
ALTER TABLE "workspaces" ADD CONSTRAINT "workspaces_branding_version_nonnegative" CHECK ("workspaces"."branding_version" >= 0);