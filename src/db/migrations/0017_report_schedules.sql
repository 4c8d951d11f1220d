-- Report schedules and their runs (delivery.md §1); see src/db/schema.ts for what each column means.
CREATE TABLE "report_schedules" (
	"report_id" text PRIMARY KEY NOT NULL,
	"frequency" text NOT NULL,
	"weekday" text,
	"day_of_month" text,
	"local_time" text NOT NULL,
	"date_preset" text NOT NULL,
	"recipient_user_ids" text[] NOT NULL,
	"send_to_self" boolean NOT NULL,
	"message" text,
	"active" boolean NOT NULL,
	"revision" integer DEFAULT 1 NOT NULL,
	"next_run_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "report_schedules_frequency" CHECK ("report_schedules"."frequency" in ('daily', 'weekly', 'monthly')),
	CONSTRAINT "report_schedules_weekday" CHECK (("report_schedules"."frequency" = 'weekly') = ("report_schedules"."weekday" is not null) and ("report_schedules"."weekday" is null or "report_schedules"."weekday" in ('monday','tuesday','wednesday','thursday','friday','saturday','sunday'))),
	CONSTRAINT "report_schedules_day_of_month" CHECK (("report_schedules"."frequency" = 'monthly') = ("report_schedules"."day_of_month" is not null) and ("report_schedules"."day_of_month" is null or "report_schedules"."day_of_month" ~ '^([1-9]|1[0-9]|2[0-8]|last)$')),
	CONSTRAINT "report_schedules_local_time" CHECK ("report_schedules"."local_time" ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
	CONSTRAINT "report_schedules_recipients" CHECK (cardinality("report_schedules"."recipient_user_ids") <= 50),
	CONSTRAINT "report_schedules_message_length" CHECK ("report_schedules"."message" is null or char_length("report_schedules"."message") <= 1000),
	CONSTRAINT "report_schedules_next_run" CHECK ("report_schedules"."active" or "report_schedules"."next_run_at" is null)
);
--> statement-breakpoint
CREATE TABLE "schedule_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"report_id" text NOT NULL,
	"trigger" text NOT NULL,
	"scheduled_for" timestamp (3) with time zone NOT NULL,
	"revision" integer NOT NULL,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"queued_at" timestamp (3) with time zone NOT NULL,
	"started_at" timestamp (3) with time zone,
	"finished_at" timestamp (3) with time zone,
	"report_content_id" text,
	"version" integer,
	"send_id" text,
	"delivered" integer DEFAULT 0 NOT NULL,
	"skipped" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"error" text,
	CONSTRAINT "schedule_runs_trigger" CHECK ("schedule_runs"."trigger" in ('schedule', 'manual')),
	CONSTRAINT "schedule_runs_status" CHECK ("schedule_runs"."status" in ('queued', 'running', 'succeeded', 'partial', 'failed', 'skipped')),
	CONSTRAINT "schedule_runs_error_length" CHECK ("schedule_runs"."error" is null or char_length("schedule_runs"."error") <= 2000)
);
--> statement-breakpoint
ALTER TABLE "report_schedules" ADD CONSTRAINT "report_schedules_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_runs" ADD CONSTRAINT "schedule_runs_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_runs" ADD CONSTRAINT "schedule_runs_report_content_id_report_contents_id_fk" FOREIGN KEY ("report_content_id") REFERENCES "public"."report_contents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_runs" ADD CONSTRAINT "schedule_runs_send_id_sends_id_fk" FOREIGN KEY ("send_id") REFERENCES "public"."sends"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "report_schedules_due_idx" ON "report_schedules" USING btree ("next_run_at");--> statement-breakpoint
CREATE UNIQUE INDEX "schedule_runs_occurrence_key" ON "schedule_runs" USING btree ("report_id","scheduled_for") WHERE "schedule_runs"."trigger" = 'schedule';--> statement-breakpoint
CREATE UNIQUE INDEX "schedule_runs_one_manual_key" ON "schedule_runs" USING btree ("report_id") WHERE "schedule_runs"."trigger" = 'manual' and "schedule_runs"."status" in ('queued', 'running');--> statement-breakpoint
CREATE INDEX "schedule_runs_report_idx" ON "schedule_runs" USING btree ("report_id","scheduled_for","id");--> statement-breakpoint
CREATE INDEX "schedule_runs_pending_idx" ON "schedule_runs" USING btree ("status") WHERE "schedule_runs"."status" in ('queued', 'running');