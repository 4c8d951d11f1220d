-- Billing, report options (docs/api.md "Report options"): rounding, hideAmounts, billable,
-- durationFormat and locale, every field stored. Existing reports get the defaults with their
-- owner's locale, so their next edit renders as they did. The column keeps a default (the
-- defaults in 'en') for rows a process of the earlier release writes during a rolling upgrade.
-- The update comes last: an ALTER after it would find the deferred key checks of the updated
-- rows still pending.
ALTER TABLE "reports" ADD COLUMN "options" jsonb DEFAULT '{"rounding":{"mode":"none"},"hideAmounts":false,"billable":"all","durationFormat":"hm","locale":"en"}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_options_object" CHECK (jsonb_typeof("reports"."options") = 'object');--> statement-breakpoint
UPDATE "reports" SET "options" = jsonb_set("reports"."options", '{locale}', to_jsonb("users"."locale"))
  FROM "users" WHERE "users"."id" = "reports"."owner_user_id" AND "users"."locale" <> 'en';
