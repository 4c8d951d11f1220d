-- The current version of a report and its content id move together: the pair must name a real
-- content row of the same report. Deferred, because a report and its first version are created
-- in one transaction.
ALTER TABLE "reports"
  ADD CONSTRAINT "reports_current_content_fk"
  FOREIGN KEY ("current_content_id", "id", "version")
  REFERENCES "report_contents" ("id", "report_id", "version")
  DEFERRABLE INITIALLY DEFERRED;
--> statement-breakpoint
-- Content versions are immutable: never updated, and never deleted except together with their report.
CREATE OR REPLACE FUNCTION chronicle_refuse_content_update() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'report content versions are immutable' USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION chronicle_refuse_lone_content_delete() RETURNS trigger AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM reports WHERE id = OLD.report_id) THEN
    RAISE EXCEPTION 'report content versions are deleted only with their report' USING ERRCODE = 'restrict_violation';
  END IF;
  RETURN OLD;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER report_contents_no_update BEFORE UPDATE ON "report_contents"
  FOR EACH ROW EXECUTE FUNCTION chronicle_refuse_content_update();
--> statement-breakpoint
CREATE TRIGGER report_contents_no_lone_delete BEFORE DELETE ON "report_contents"
  FOR EACH ROW EXECUTE FUNCTION chronicle_refuse_lone_content_delete();
