ALTER TABLE "report_contents" ADD COLUMN "summary" jsonb;--> statement-breakpoint
-- Existing versions keep summary null: their entries may have changed since they were rendered,
-- so their breakdown cannot be computed again (docs/api.md "Version history").
-- A link names the number of the version it serves; existing links take it from their version.
ALTER TABLE "shares" ADD COLUMN "version" integer;--> statement-breakpoint
UPDATE "shares" SET "version" = c."version" FROM "report_contents" c WHERE c."id" = "shares"."report_content_id";--> statement-breakpoint
ALTER TABLE "shares" ALTER COLUMN "version" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "shares" ADD CONSTRAINT "shares_report_content_id_report_id_version_report_contents_id_report_id_version_fk" FOREIGN KEY ("report_content_id","report_id","version") REFERENCES "public"."report_contents"("id","report_id","version") ON DELETE cascade ON UPDATE no action;
