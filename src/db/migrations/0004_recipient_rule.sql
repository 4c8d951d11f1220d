-- Recipients follow the rule of docs/decisions.md ("Sending and the inbox"): a snapshot with an entry by
-- someone other than the owner on a project restricts recipients to readers of every snapshot
-- project; a snapshot of only the owner's own or unassigned entries restricts nobody.
ALTER TABLE "reports" ADD COLUMN "restricts_recipients" boolean;
--> statement-breakpoint
-- Decided from what earlier renders stored: no snapshot project at all restricts nobody; the
-- projects of other people's entries (tracked since 0003) tell whether such an entry exists.
-- Everything else cannot be decided and stays null: nobody is eligible until a re-render.
UPDATE "reports" SET "restricts_recipients" = CASE
  WHEN "snapshot_project_ids" IS NULL THEN NULL
  WHEN cardinality("snapshot_project_ids") = 0 THEN false
  WHEN "restricting_project_ids" IS NOT NULL THEN cardinality("restricting_project_ids") > 0
  ELSE NULL
END;
