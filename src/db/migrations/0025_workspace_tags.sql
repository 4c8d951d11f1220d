-- The time-entry list filtered by a workspace and a tag counts that workspace's entries with the
-- tag: the tags' own index finds every workspace's, and each of those rows is read only to be
-- dropped. Each tag qualified by its workspace (the workspace's id, a unit separator,
-- the tag; an id never holds the separator) is indexed as well (docs/decisions.md "A tag is looked
-- up within its workspace").
CREATE OR REPLACE FUNCTION chronicle_workspace_tags(workspace_id text, tags text[]) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT array(SELECT workspace_id || chr(31) || tag FROM unnest(tags) AS tag) $$;
--> statement-breakpoint
CREATE INDEX "time_entries_workspace_tags_idx" ON "time_entries" USING gin (chronicle_workspace_tags("workspace_id", "tags"));
