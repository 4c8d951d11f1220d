-- Links that follow the newest version of their report (delivery.md §2); existing links serve their version, as before.
ALTER TABLE "shares" ADD COLUMN "follows" text DEFAULT 'version' NOT NULL;--> statement-breakpoint
CREATE INDEX "shares_following_idx" ON "shares" USING btree ("report_id") WHERE "shares"."follows" = 'latest';--> statement-breakpoint
ALTER TABLE "shares" ADD CONSTRAINT "shares_follows" CHECK ("shares"."follows" = 'version' or ("shares"."follows" = 'latest' and "shares"."delivery_id" is null));