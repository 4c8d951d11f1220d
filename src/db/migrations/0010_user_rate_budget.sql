-- The API rate limit counted per token, so minting tokens multiplied a user's budget, and session
-- requests were not counted at all. The counter is now one row per user, which every token and
-- session of the user spends (docs/operations.md "Rate limit"). The old per-token windows are
-- dropped: they last a minute, so nothing worth keeping is lost.
CREATE TABLE "user_rate_windows" (
	"user_id" text PRIMARY KEY NOT NULL,
	"window_start" timestamp (3) with time zone NOT NULL,
	"used" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "user_rate_windows" ADD CONSTRAINT "user_rate_windows_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
DROP TABLE "api_rate_windows" CASCADE;
