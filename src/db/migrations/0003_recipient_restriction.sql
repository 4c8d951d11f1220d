-- Not backfilled: today's entries need not match an old snapshot, so existing rows stay null and
-- keep the stricter rule (every snapshot project) until they are re-rendered.
ALTER TABLE "reports" ADD COLUMN "restricting_project_ids" text[];
