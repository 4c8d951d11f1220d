-- A single time entry's insert now checks ENTRY_QUOTA_PER_USER in its own statement, by locking
-- the user's count in the workspace (time_entry_counts) and inserting only while it is under the
-- quota. That needs the count's row before the first entry: every member gets one when they join
-- (docs/decisions.md "Entry counts are kept, not counted").
INSERT INTO time_entry_counts (workspace_id, user_id, entries)
  SELECT workspace_id, user_id, 0 FROM workspace_members
  ON CONFLICT (workspace_id, user_id) DO NOTHING;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION chronicle_start_time_entry_counts() RETURNS trigger AS $$
BEGIN
  INSERT INTO time_entry_counts (workspace_id, user_id, entries)
    SELECT workspace_id, user_id, 0 FROM chronicle_new_members ORDER BY 1, 2
    ON CONFLICT (workspace_id, user_id) DO NOTHING;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER workspace_members_start_time_entry_counts AFTER INSERT ON "workspace_members"
  REFERENCING NEW TABLE AS chronicle_new_members
  FOR EACH STATEMENT EXECUTE FUNCTION chronicle_start_time_entry_counts();
