-- ENTRY_QUOTA_PER_USER was checked by counting the user's entries in the workspace (up to the
-- quota) on every insert, under a lock: with tens of thousands of entries each insert spent
-- milliseconds counting, and one user's inserts waited for each other's counts. The counts are
-- now kept per (workspace, user) by statement triggers in the same transaction as the entries
-- (docs/decisions.md "Entry counts are kept, not counted").
CREATE TABLE "time_entry_counts" (
	"workspace_id" text NOT NULL,
	"user_id" text NOT NULL,
	"entries" integer NOT NULL,
	CONSTRAINT "time_entry_counts_workspace_id_user_id_pk" PRIMARY KEY("workspace_id","user_id"),
	CONSTRAINT "time_entry_counts_entries_range" CHECK ("time_entry_counts"."entries" >= 0)
);
--> statement-breakpoint
ALTER TABLE "time_entry_counts" ADD CONSTRAINT "time_entry_counts_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "time_entry_counts" ADD CONSTRAINT "time_entry_counts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
INSERT INTO "time_entry_counts" ("workspace_id", "user_id", "entries")
  SELECT workspace_id, user_id, count(*)::int FROM time_entries GROUP BY workspace_id, user_id;
--> statement-breakpoint
-- Each statement's rows, as sets: added entries are upserted (in key order, so two statements
-- that touch the same keys lock their rows in one order), removed ones subtracted. A row whose
-- workspace or user is being deleted may already be gone (its foreign key cascades): nothing to
-- subtract from then, and nothing is inserted for it.
CREATE OR REPLACE FUNCTION chronicle_count_time_entries() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO time_entry_counts AS c (workspace_id, user_id, entries)
      SELECT workspace_id, user_id, count(*)::int FROM chronicle_added_entries GROUP BY 1, 2 ORDER BY 1, 2
      ON CONFLICT (workspace_id, user_id) DO UPDATE SET entries = c.entries + excluded.entries;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE time_entry_counts c SET entries = c.entries - d.n
      FROM (SELECT workspace_id, user_id, count(*)::int AS n FROM chronicle_removed_entries GROUP BY 1, 2) d
      WHERE c.workspace_id = d.workspace_id AND c.user_id = d.user_id;
  ELSE
    -- An update moves an entry between counts only when its workspace or user changes.
    WITH moved AS (
      SELECT workspace_id, user_id, sum(n)::int AS n FROM (
        SELECT workspace_id, user_id, 1 AS n FROM chronicle_added_entries
        UNION ALL
        SELECT workspace_id, user_id, -1 AS n FROM chronicle_removed_entries
      ) x GROUP BY 1, 2 HAVING sum(n) <> 0
    ), subtracted AS (
      UPDATE time_entry_counts c SET entries = c.entries + m.n
        FROM moved m WHERE m.n < 0 AND c.workspace_id = m.workspace_id AND c.user_id = m.user_id
    )
    INSERT INTO time_entry_counts AS c (workspace_id, user_id, entries)
      SELECT workspace_id, user_id, n FROM moved WHERE n > 0 ORDER BY 1, 2
      ON CONFLICT (workspace_id, user_id) DO UPDATE SET entries = c.entries + excluded.entries;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER time_entries_count_on_insert AFTER INSERT ON "time_entries"
  REFERENCING NEW TABLE AS chronicle_added_entries
  FOR EACH STATEMENT EXECUTE FUNCTION chronicle_count_time_entries();
--> statement-breakpoint
CREATE TRIGGER time_entries_count_on_update AFTER UPDATE ON "time_entries"
  REFERENCING OLD TABLE AS chronicle_removed_entries NEW TABLE AS chronicle_added_entries
  FOR EACH STATEMENT EXECUTE FUNCTION chronicle_count_time_entries();
--> statement-breakpoint
CREATE TRIGGER time_entries_count_on_delete AFTER DELETE ON "time_entries"
  REFERENCING OLD TABLE AS chronicle_removed_entries
  FOR EACH STATEMENT EXECUTE FUNCTION chronicle_count_time_entries();
