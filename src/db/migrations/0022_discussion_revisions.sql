-- A discussion read built its JSON document in the database on every request. Each version now
-- has a revision that every write a discussion read would show moves, in the same statement, so
-- a process may answer from a document it built at the same revision (docs/decisions.md
-- "A discussion document is cached per revision").
CREATE TABLE "discussion_revisions" (
	"report_content_id" text PRIMARY KEY NOT NULL,
	"revision" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "discussion_revisions" ADD CONSTRAINT "discussion_revisions_report_content_id_report_contents_id_fk" FOREIGN KEY ("report_content_id") REFERENCES "public"."report_contents"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
INSERT INTO "discussion_revisions" ("report_content_id") SELECT id FROM report_contents;
--> statement-breakpoint
-- Every version starts at revision 0, in the statement that stores it.
CREATE OR REPLACE FUNCTION chronicle_start_discussion_revisions() RETURNS trigger AS $$
BEGIN
  INSERT INTO discussion_revisions (report_content_id) SELECT id FROM chronicle_new_contents;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER report_contents_start_discussion_revision AFTER INSERT ON "report_contents"
  REFERENCING NEW TABLE AS chronicle_new_contents
  FOR EACH STATEMENT EXECUTE FUNCTION chronicle_start_discussion_revisions();
--> statement-breakpoint
-- A statement that adds, edits or removes comments or reactions moves the revision of each
-- version it touched, once. (A version deleted with its report has no revision left to move.)
CREATE OR REPLACE FUNCTION chronicle_move_discussion_revisions() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE discussion_revisions r SET revision = r.revision + 1
      WHERE r.report_content_id IN (SELECT report_content_id FROM chronicle_new_rows);
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE discussion_revisions r SET revision = r.revision + 1
      WHERE r.report_content_id IN (SELECT report_content_id FROM chronicle_old_rows);
  ELSE
    UPDATE discussion_revisions r SET revision = r.revision + 1
      WHERE r.report_content_id IN (SELECT report_content_id FROM chronicle_new_rows UNION SELECT report_content_id FROM chronicle_old_rows);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER comments_move_discussion_revision_on_insert AFTER INSERT ON "comments"
  REFERENCING NEW TABLE AS chronicle_new_rows FOR EACH STATEMENT EXECUTE FUNCTION chronicle_move_discussion_revisions();
--> statement-breakpoint
CREATE TRIGGER comments_move_discussion_revision_on_update AFTER UPDATE ON "comments"
  REFERENCING OLD TABLE AS chronicle_old_rows NEW TABLE AS chronicle_new_rows FOR EACH STATEMENT EXECUTE FUNCTION chronicle_move_discussion_revisions();
--> statement-breakpoint
CREATE TRIGGER comments_move_discussion_revision_on_delete AFTER DELETE ON "comments"
  REFERENCING OLD TABLE AS chronicle_old_rows FOR EACH STATEMENT EXECUTE FUNCTION chronicle_move_discussion_revisions();
--> statement-breakpoint
CREATE TRIGGER reactions_move_discussion_revision_on_insert AFTER INSERT ON "reactions"
  REFERENCING NEW TABLE AS chronicle_new_rows FOR EACH STATEMENT EXECUTE FUNCTION chronicle_move_discussion_revisions();
--> statement-breakpoint
CREATE TRIGGER reactions_move_discussion_revision_on_update AFTER UPDATE ON "reactions"
  REFERENCING OLD TABLE AS chronicle_old_rows NEW TABLE AS chronicle_new_rows FOR EACH STATEMENT EXECUTE FUNCTION chronicle_move_discussion_revisions();
--> statement-breakpoint
CREATE TRIGGER reactions_move_discussion_revision_on_delete AFTER DELETE ON "reactions"
  REFERENCING OLD TABLE AS chronicle_old_rows FOR EACH STATEMENT EXECUTE FUNCTION chronicle_move_discussion_revisions();
--> statement-breakpoint
-- A discussion shows its participants' current names (reactions) and avatars (comments): a
-- change to either moves the revision of every version the user commented on or reacted to.
CREATE OR REPLACE FUNCTION chronicle_move_discussion_revisions_of_user() RETURNS trigger AS $$
BEGIN
  UPDATE discussion_revisions r SET revision = r.revision + 1
    WHERE r.report_content_id IN (
      SELECT report_content_id FROM comments WHERE author_user_id = NEW.id
      UNION SELECT report_content_id FROM reactions WHERE user_id = NEW.id);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER users_move_discussion_revisions AFTER UPDATE OF name, image_url ON "users"
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.image_url IS DISTINCT FROM NEW.image_url)
  EXECUTE FUNCTION chronicle_move_discussion_revisions_of_user();
