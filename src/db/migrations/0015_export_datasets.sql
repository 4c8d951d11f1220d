-- Exports (docs/exports.md): each new content version stores the rows it was rendered from, and
-- share links count downloads apart from views. Versions rendered before this have no dataset.
CREATE TABLE "report_datasets" (
	"content_id" text PRIMARY KEY NOT NULL,
	"format" integer NOT NULL,
	"entry_count" integer NOT NULL,
	"locale" text NOT NULL,
	"data" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "report_datasets_entry_count_nonnegative" CHECK ("report_datasets"."entry_count" >= 0)
);
--> statement-breakpoint
ALTER TABLE "shares" ADD COLUMN "download_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "report_datasets" ADD CONSTRAINT "report_datasets_content_id_report_contents_id_fk" FOREIGN KEY ("content_id") REFERENCES "public"."report_contents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shares" ADD CONSTRAINT "shares_download_count_nonnegative" CHECK ("shares"."download_count" >= 0);--> statement-breakpoint
-- A dataset is as immutable as its version: never updated, deleted only with its version.
CREATE OR REPLACE FUNCTION chronicle_refuse_lone_dataset_delete() RETURNS trigger AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM report_contents WHERE id = OLD.content_id) THEN
    RAISE EXCEPTION 'report datasets are deleted only with their content version' USING ERRCODE = 'restrict_violation';
  END IF;
  RETURN OLD;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER report_datasets_no_update BEFORE UPDATE ON "report_datasets"
  FOR EACH ROW EXECUTE FUNCTION chronicle_refuse_content_update();
--> statement-breakpoint
CREATE TRIGGER report_datasets_no_lone_delete BEFORE DELETE ON "report_datasets"
  FOR EACH ROW EXECUTE FUNCTION chronicle_refuse_lone_dataset_delete();
