-- A time entry's workspace, user and project were foreign keys, each checked row by row: a batch
-- of 1,000 entries ran 3,000 checks, more than half of its statement. The same rules are now kept
-- by triggers that look at a statement's rows as a set, once per distinct reference
-- (docs/decisions.md "Time entries' references are checked per statement").
ALTER TABLE "time_entries" DROP CONSTRAINT "time_entries_workspace_id_workspaces_id_fk";
--> statement-breakpoint
ALTER TABLE "time_entries" DROP CONSTRAINT "time_entries_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "time_entries" DROP CONSTRAINT "time_entries_project_id_workspace_id_projects_id_workspace_id_fk";
--> statement-breakpoint
-- Every entry a statement wrote names a workspace and a user that exist, and its project (if any)
-- is a project of that workspace. As a foreign key does, the referenced rows are locked FOR KEY
-- SHARE, so none of them can be deleted before this transaction ends; a concurrent delete is
-- waited for, and a row it removed counts as missing.
CREATE OR REPLACE FUNCTION chronicle_check_time_entry_references() RETURNS trigger AS $$
BEGIN
  IF EXISTS (
    SELECT 1 FROM (SELECT DISTINCT workspace_id, user_id, project_id FROM chronicle_written_entries) e
    WHERE NOT EXISTS (SELECT 1 FROM workspaces w WHERE w.id = e.workspace_id FOR KEY SHARE)
      OR NOT EXISTS (SELECT 1 FROM users u WHERE u.id = e.user_id FOR KEY SHARE)
      OR (e.project_id IS NOT NULL AND NOT EXISTS (
        SELECT 1 FROM projects p WHERE p.id = e.project_id AND p.workspace_id = e.workspace_id FOR KEY SHARE))
  ) THEN
    RAISE EXCEPTION 'a time entry names a workspace, user or project (of its workspace) that does not exist'
      USING ERRCODE = 'foreign_key_violation', TABLE = 'time_entries', CONSTRAINT = 'time_entries_references';
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER time_entries_references_on_insert AFTER INSERT ON "time_entries"
  REFERENCING NEW TABLE AS chronicle_written_entries
  FOR EACH STATEMENT EXECUTE FUNCTION chronicle_check_time_entry_references();
--> statement-breakpoint
CREATE TRIGGER time_entries_references_on_update AFTER UPDATE ON "time_entries"
  REFERENCING NEW TABLE AS chronicle_written_entries
  FOR EACH STATEMENT EXECUTE FUNCTION chronicle_check_time_entry_references();
--> statement-breakpoint
-- Deleting a user, a workspace or a project deletes its entries (ON DELETE CASCADE), one
-- statement for all the rows deleted.
CREATE OR REPLACE FUNCTION chronicle_delete_time_entries_of_deleted() RETURNS trigger AS $$
BEGIN
  IF TG_TABLE_NAME = 'users' THEN
    DELETE FROM time_entries e USING chronicle_deleted d WHERE e.user_id = d.id;
  ELSIF TG_TABLE_NAME = 'workspaces' THEN
    DELETE FROM time_entries e USING chronicle_deleted d WHERE e.workspace_id = d.id;
  ELSE
    DELETE FROM time_entries e USING chronicle_deleted d WHERE e.project_id = d.id AND e.workspace_id = d.workspace_id;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER users_delete_time_entries AFTER DELETE ON "users"
  REFERENCING OLD TABLE AS chronicle_deleted
  FOR EACH STATEMENT EXECUTE FUNCTION chronicle_delete_time_entries_of_deleted();
--> statement-breakpoint
CREATE TRIGGER workspaces_delete_time_entries AFTER DELETE ON "workspaces"
  REFERENCING OLD TABLE AS chronicle_deleted
  FOR EACH STATEMENT EXECUTE FUNCTION chronicle_delete_time_entries_of_deleted();
--> statement-breakpoint
CREATE TRIGGER projects_delete_time_entries AFTER DELETE ON "projects"
  REFERENCING OLD TABLE AS chronicle_deleted
  FOR EACH STATEMENT EXECUTE FUNCTION chronicle_delete_time_entries_of_deleted();
--> statement-breakpoint
-- The key of a user, workspace or project that entries name does not change (ON UPDATE NO ACTION).
CREATE OR REPLACE FUNCTION chronicle_keep_time_entry_keys() RETURNS trigger AS $$
BEGIN
  IF TG_TABLE_NAME = 'users' THEN
    IF EXISTS (SELECT 1 FROM time_entries WHERE user_id = OLD.id) THEN
      RAISE EXCEPTION 'time entries name this user' USING ERRCODE = 'foreign_key_violation', TABLE = 'time_entries', CONSTRAINT = 'time_entries_references';
    END IF;
  ELSIF TG_TABLE_NAME = 'workspaces' THEN
    IF EXISTS (SELECT 1 FROM time_entries WHERE workspace_id = OLD.id) THEN
      RAISE EXCEPTION 'time entries name this workspace' USING ERRCODE = 'foreign_key_violation', TABLE = 'time_entries', CONSTRAINT = 'time_entries_references';
    END IF;
  ELSIF EXISTS (SELECT 1 FROM time_entries WHERE project_id = OLD.id AND workspace_id = OLD.workspace_id) THEN
    RAISE EXCEPTION 'time entries name this project' USING ERRCODE = 'foreign_key_violation', TABLE = 'time_entries', CONSTRAINT = 'time_entries_references';
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER users_keep_time_entry_keys AFTER UPDATE OF id ON "users"
  FOR EACH ROW WHEN (OLD.id IS DISTINCT FROM NEW.id) EXECUTE FUNCTION chronicle_keep_time_entry_keys();
--> statement-breakpoint
CREATE TRIGGER workspaces_keep_time_entry_keys AFTER UPDATE OF id ON "workspaces"
  FOR EACH ROW WHEN (OLD.id IS DISTINCT FROM NEW.id) EXECUTE FUNCTION chronicle_keep_time_entry_keys();
--> statement-breakpoint
CREATE TRIGGER projects_keep_time_entry_keys AFTER UPDATE OF id, workspace_id ON "projects"
  FOR EACH ROW WHEN (OLD.id IS DISTINCT FROM NEW.id OR OLD.workspace_id IS DISTINCT FROM NEW.workspace_id)
  EXECUTE FUNCTION chronicle_keep_time_entry_keys();
