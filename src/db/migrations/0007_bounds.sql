CREATE TABLE "api_rate_windows" (
	"token_id" text PRIMARY KEY NOT NULL,
	"window_start" timestamp (3) with time zone NOT NULL,
	"used" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "passcode_attempts" (
	"share_id" text NOT NULL,
	"client_key" text NOT NULL,
	"attempts" integer NOT NULL,
	"window_started_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "passcode_attempts_share_id_client_key_pk" PRIMARY KEY("share_id","client_key")
);
--> statement-breakpoint
ALTER TABLE "api_tokens" ADD COLUMN "created_by_token_id" text;--> statement-breakpoint
ALTER TABLE "api_rate_windows" ADD CONSTRAINT "api_rate_windows_token_id_api_tokens_id_fk" FOREIGN KEY ("token_id") REFERENCES "public"."api_tokens"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "passcode_attempts" ADD CONSTRAINT "passcode_attempts_share_id_shares_id_fk" FOREIGN KEY ("share_id") REFERENCES "public"."shares"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "passcode_attempts_window_idx" ON "passcode_attempts" USING btree ("window_started_at");--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_created_by_token_id_api_tokens_id_fk" FOREIGN KEY ("created_by_token_id") REFERENCES "public"."api_tokens"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_tokens_created_by_idx" ON "api_tokens" USING btree ("created_by_token_id");