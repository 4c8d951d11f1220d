-- E-mail (delivery.md §3): outgoing messages, preferences, suppressed outside addresses, and the addresses a schedule mails.
CREATE TABLE "mail_messages" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"recipient_user_id" text,
	"to_address" text NOT NULL,
	"send_id" text,
	"delivery_id" text,
	"schedule_run_id" text,
	"share_id" text,
	"report_content_id" text,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"secret" text,
	"attach_pdf" boolean DEFAULT false NOT NULL,
	"for_digest" boolean DEFAULT false NOT NULL,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"due_at" timestamp (3) with time zone NOT NULL,
	"claimed_at" timestamp (3) with time zone,
	"digest_id" text,
	"message_id" text NOT NULL,
	"subject" text,
	"body" text,
	"error" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp (3) with time zone,
	CONSTRAINT "mail_messages_kind" CHECK ("mail_messages"."kind" in ('delivery', 'address', 'discussion', 'run_problem', 'password_link', 'digest')),
	CONSTRAINT "mail_messages_status" CHECK ("mail_messages"."status" in ('held', 'queued', 'sending', 'sent', 'kept', 'failed', 'digested')),
	CONSTRAINT "mail_messages_error_length" CHECK ("mail_messages"."error" is null or char_length("mail_messages"."error") <= 2000)
);
--> statement-breakpoint
CREATE TABLE "mail_suppressions" (
	"report_id" text NOT NULL,
	"address" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mail_suppressions_report_id_address_pk" PRIMARY KEY("report_id","address")
);
--> statement-breakpoint
CREATE TABLE "notification_preferences" (
	"user_id" text PRIMARY KEY NOT NULL,
	"inbox" boolean DEFAULT true NOT NULL,
	"discussion" boolean DEFAULT true NOT NULL,
	"schedule_problems" boolean DEFAULT true NOT NULL,
	"attach_pdf" boolean DEFAULT false NOT NULL,
	"digest" text DEFAULT 'immediate' NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notification_preferences_digest" CHECK ("notification_preferences"."digest" in ('immediate', 'daily'))
);
--> statement-breakpoint
ALTER TABLE "report_schedules" ADD COLUMN "emails" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "report_schedules" ADD COLUMN "email_link" text DEFAULT 'version' NOT NULL;--> statement-breakpoint
ALTER TABLE "report_schedules" ADD COLUMN "attach_pdf" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "schedule_runs" ADD COLUMN "emailed" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "shares" ADD COLUMN "email_address" text;--> statement-breakpoint
ALTER TABLE "mail_messages" ADD CONSTRAINT "mail_messages_recipient_user_id_users_id_fk" FOREIGN KEY ("recipient_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_messages" ADD CONSTRAINT "mail_messages_send_id_sends_id_fk" FOREIGN KEY ("send_id") REFERENCES "public"."sends"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_messages" ADD CONSTRAINT "mail_messages_delivery_id_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_messages" ADD CONSTRAINT "mail_messages_schedule_run_id_schedule_runs_id_fk" FOREIGN KEY ("schedule_run_id") REFERENCES "public"."schedule_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_messages" ADD CONSTRAINT "mail_messages_share_id_shares_id_fk" FOREIGN KEY ("share_id") REFERENCES "public"."shares"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_messages" ADD CONSTRAINT "mail_messages_report_content_id_report_contents_id_fk" FOREIGN KEY ("report_content_id") REFERENCES "public"."report_contents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_messages" ADD CONSTRAINT "mail_messages_digest_id_mail_messages_id_fk" FOREIGN KEY ("digest_id") REFERENCES "public"."mail_messages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_suppressions" ADD CONSTRAINT "mail_suppressions_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_preferences" ADD CONSTRAINT "notification_preferences_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mail_messages_due_idx" ON "mail_messages" USING btree ("due_at") WHERE "mail_messages"."status" in ('held', 'queued', 'sending');--> statement-breakpoint
CREATE INDEX "mail_messages_created_idx" ON "mail_messages" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "mail_messages_send_idx" ON "mail_messages" USING btree ("send_id");--> statement-breakpoint
CREATE INDEX "mail_messages_run_idx" ON "mail_messages" USING btree ("schedule_run_id");--> statement-breakpoint
CREATE INDEX "mail_messages_recipient_idx" ON "mail_messages" USING btree ("recipient_user_id");--> statement-breakpoint
CREATE INDEX "mail_messages_delivery_idx" ON "mail_messages" USING btree ("delivery_id");--> statement-breakpoint
CREATE INDEX "mail_messages_share_idx" ON "mail_messages" USING btree ("share_id");--> statement-breakpoint
CREATE INDEX "mail_messages_content_idx" ON "mail_messages" USING btree ("report_content_id");--> statement-breakpoint
CREATE UNIQUE INDEX "mail_messages_discussion_batch_key" ON "mail_messages" USING btree ("report_content_id","recipient_user_id") WHERE "mail_messages"."kind" = 'discussion' and "mail_messages"."status" = 'held';--> statement-breakpoint
CREATE INDEX "mail_messages_digest_idx" ON "mail_messages" USING btree ("digest_id");--> statement-breakpoint
CREATE UNIQUE INDEX "shares_address_following_key" ON "shares" USING btree ("report_id","email_address") WHERE "shares"."follows" = 'latest' and "shares"."email_address" is not null and "shares"."revoked_at" is null;--> statement-breakpoint
ALTER TABLE "report_schedules" ADD CONSTRAINT "report_schedules_emails" CHECK (cardinality("report_schedules"."emails") <= 50);--> statement-breakpoint
ALTER TABLE "report_schedules" ADD CONSTRAINT "report_schedules_email_link" CHECK ("report_schedules"."email_link" in ('version', 'latest'));