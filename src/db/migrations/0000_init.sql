CREATE TABLE "api_tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"token_hash" text NOT NULL,
	"scopes" text[] NOT NULL,
	"bootstrap" boolean DEFAULT false NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp (3) with time zone,
	"revoked_at" timestamp (3) with time zone,
	CONSTRAINT "api_tokens_token_hash_unique" UNIQUE("token_hash"),
	CONSTRAINT "api_tokens_scopes_valid" CHECK (cardinality("api_tokens"."scopes") between 1 and 2 and "api_tokens"."scopes" <@ array['read','write']::text[])
);
--> statement-breakpoint
CREATE TABLE "comments" (
	"id" text PRIMARY KEY NOT NULL,
	"report_content_id" text NOT NULL,
	"author_user_id" text,
	"author_name" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "comments_id_content_key" UNIQUE("id","report_content_id"),
	CONSTRAINT "comments_body_length" CHECK (char_length("comments"."body") between 1 and 10000)
);
--> statement-breakpoint
CREATE TABLE "deliveries" (
	"id" text PRIMARY KEY NOT NULL,
	"send_id" text NOT NULL,
	"report_id" text NOT NULL,
	"report_content_id" text NOT NULL,
	"version" integer NOT NULL,
	"recipient_user_id" text NOT NULL,
	"self" boolean NOT NULL,
	"report_name" text NOT NULL,
	"sender_user_id" text NOT NULL,
	"sender_name" text NOT NULL,
	"message" text,
	"sent_at" timestamp (3) with time zone NOT NULL,
	"read_at" timestamp (3) with time zone,
	CONSTRAINT "deliveries_send_recipient_key" UNIQUE("send_id","recipient_user_id")
);
--> statement-breakpoint
CREATE TABLE "instance_state" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "project_members" (
	"project_id" text NOT NULL,
	"workspace_id" text NOT NULL,
	"user_id" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "project_members_project_id_user_id_pk" PRIMARY KEY("project_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "projects" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "projects_id_workspace_key" UNIQUE("id","workspace_id"),
	CONSTRAINT "projects_name_length" CHECK (char_length("projects"."name") between 1 and 100)
);
--> statement-breakpoint
CREATE TABLE "reactions" (
	"id" text PRIMARY KEY NOT NULL,
	"report_content_id" text NOT NULL,
	"comment_id" text,
	"user_id" text NOT NULL,
	"emoji" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reactions_one_per_user_key" UNIQUE NULLS NOT DISTINCT("report_content_id","comment_id","user_id","emoji"),
	CONSTRAINT "reactions_emoji_valid" CHECK ("reactions"."emoji" in ('+1','-1','laugh','hooray','confused','heart','rocket','eyes'))
);
--> statement-breakpoint
CREATE TABLE "report_contents" (
	"id" text PRIMARY KEY NOT NULL,
	"report_id" text NOT NULL,
	"version" integer NOT NULL,
	"rendered_markdown" text NOT NULL,
	"total_minutes" integer NOT NULL,
	"snapshot_project_ids" text[] NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "report_contents_report_version_key" UNIQUE("report_id","version"),
	CONSTRAINT "report_contents_identity_key" UNIQUE("id","report_id","version")
);
--> statement-breakpoint
CREATE TABLE "reports" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_user_id" text NOT NULL,
	"template_id" text NOT NULL,
	"name" text NOT NULL,
	"note" text,
	"filters" jsonb NOT NULL,
	"workspace_ids" text[] NOT NULL,
	"period_from" date NOT NULL,
	"period_to" date NOT NULL,
	"total_minutes" integer,
	"snapshot_project_ids" text[],
	"version" integer NOT NULL,
	"current_content_id" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reports_name_length" CHECK (char_length("reports"."name") between 1 and 100),
	CONSTRAINT "reports_note_length" CHECK ("reports"."note" is null or char_length("reports"."note") between 1 and 20000),
	CONSTRAINT "reports_workspaces_count" CHECK (cardinality("reports"."workspace_ids") between 1 and 20),
	CONSTRAINT "reports_period_order" CHECK ("reports"."period_from" <= "reports"."period_to" and "reports"."period_to" - "reports"."period_from" < 366),
	CONSTRAINT "reports_version_positive" CHECK ("reports"."version" >= 1)
);
--> statement-breakpoint
CREATE TABLE "sends" (
	"id" text PRIMARY KEY NOT NULL,
	"report_id" text NOT NULL,
	"report_content_id" text NOT NULL,
	"sender_user_id" text NOT NULL,
	"message" text,
	"send_to_self" boolean NOT NULL,
	"sent_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sends_message_length" CHECK ("sends"."message" is null or char_length("sends"."message") <= 1000)
);
--> statement-breakpoint
CREATE TABLE "shares" (
	"id" text PRIMARY KEY NOT NULL,
	"report_id" text NOT NULL,
	"report_content_id" text NOT NULL,
	"created_by_user_id" text NOT NULL,
	"delivery_id" text,
	"token_hash" text NOT NULL,
	"token_encrypted" text NOT NULL,
	"passcode_hash" text,
	"expires_at" timestamp (3) with time zone,
	"revoked_at" timestamp (3) with time zone,
	"view_count" integer DEFAULT 0 NOT NULL,
	"last_viewed_at" timestamp (3) with time zone,
	"failed_attempts" integer DEFAULT 0 NOT NULL,
	"failed_window_started_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shares_token_hash_unique" UNIQUE("token_hash"),
	CONSTRAINT "shares_view_count_nonnegative" CHECK ("shares"."view_count" >= 0)
);
--> statement-breakpoint
CREATE TABLE "templates" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"body" text NOT NULL,
	"name_template" text DEFAULT '' NOT NULL,
	"note_template" text DEFAULT '' NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"built_in_key" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "templates_built_in_key_unique" UNIQUE("built_in_key"),
	CONSTRAINT "templates_name_length" CHECK (char_length("templates"."name") between 1 and 100),
	CONSTRAINT "templates_body_length" CHECK (char_length("templates"."body") <= 100000),
	CONSTRAINT "templates_name_template_length" CHECK (char_length("templates"."name_template") <= 500),
	CONSTRAINT "templates_note_template_length" CHECK (char_length("templates"."note_template") <= 5000)
);
--> statement-breakpoint
CREATE TABLE "time_entries" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"project_id" text,
	"user_id" text NOT NULL,
	"start" timestamp (3) with time zone NOT NULL,
	"minutes" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "time_entries_minutes_range" CHECK ("time_entries"."minutes" between 1 and 1440),
	CONSTRAINT "time_entries_description_length" CHECK (char_length("time_entries"."description") <= 2000),
	CONSTRAINT "time_entries_tags_count" CHECK (cardinality("time_entries"."tags") <= 20)
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"timezone" text DEFAULT 'UTC' NOT NULL,
	"image_url" text,
	"instance_admin" boolean DEFAULT false NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_name_length" CHECK (char_length("users"."name") between 1 and 100)
);
--> statement-breakpoint
CREATE TABLE "workspace_members" (
	"workspace_id" text NOT NULL,
	"user_id" text NOT NULL,
	"role" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workspace_members_workspace_id_user_id_pk" PRIMARY KEY("workspace_id","user_id"),
	CONSTRAINT "workspace_members_role_valid" CHECK ("workspace_members"."role" in ('owner','admin','member'))
);
--> statement-breakpoint
CREATE TABLE "workspaces" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workspaces_name_length" CHECK (char_length("workspaces"."name") between 1 and 100)
);
--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_report_content_id_report_contents_id_fk" FOREIGN KEY ("report_content_id") REFERENCES "public"."report_contents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_author_user_id_users_id_fk" FOREIGN KEY ("author_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_send_id_sends_id_fk" FOREIGN KEY ("send_id") REFERENCES "public"."sends"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_report_content_id_report_contents_id_fk" FOREIGN KEY ("report_content_id") REFERENCES "public"."report_contents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_recipient_user_id_users_id_fk" FOREIGN KEY ("recipient_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_report_content_id_report_id_version_report_contents_id_report_id_version_fk" FOREIGN KEY ("report_content_id","report_id","version") REFERENCES "public"."report_contents"("id","report_id","version") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_members" ADD CONSTRAINT "project_members_project_id_workspace_id_projects_id_workspace_id_fk" FOREIGN KEY ("project_id","workspace_id") REFERENCES "public"."projects"("id","workspace_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_members" ADD CONSTRAINT "project_members_workspace_id_user_id_workspace_members_workspace_id_user_id_fk" FOREIGN KEY ("workspace_id","user_id") REFERENCES "public"."workspace_members"("workspace_id","user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reactions" ADD CONSTRAINT "reactions_report_content_id_report_contents_id_fk" FOREIGN KEY ("report_content_id") REFERENCES "public"."report_contents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reactions" ADD CONSTRAINT "reactions_comment_id_comments_id_fk" FOREIGN KEY ("comment_id") REFERENCES "public"."comments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reactions" ADD CONSTRAINT "reactions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reactions" ADD CONSTRAINT "reactions_comment_id_report_content_id_comments_id_report_content_id_fk" FOREIGN KEY ("comment_id","report_content_id") REFERENCES "public"."comments"("id","report_content_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_contents" ADD CONSTRAINT "report_contents_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sends" ADD CONSTRAINT "sends_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sends" ADD CONSTRAINT "sends_report_content_id_report_contents_id_fk" FOREIGN KEY ("report_content_id") REFERENCES "public"."report_contents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sends" ADD CONSTRAINT "sends_sender_user_id_users_id_fk" FOREIGN KEY ("sender_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shares" ADD CONSTRAINT "shares_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shares" ADD CONSTRAINT "shares_report_content_id_report_contents_id_fk" FOREIGN KEY ("report_content_id") REFERENCES "public"."report_contents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shares" ADD CONSTRAINT "shares_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shares" ADD CONSTRAINT "shares_delivery_id_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "time_entries" ADD CONSTRAINT "time_entries_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "time_entries" ADD CONSTRAINT "time_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "time_entries" ADD CONSTRAINT "time_entries_project_id_workspace_id_projects_id_workspace_id_fk" FOREIGN KEY ("project_id","workspace_id") REFERENCES "public"."projects"("id","workspace_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_members" ADD CONSTRAINT "workspace_members_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_members" ADD CONSTRAINT "workspace_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_tokens_user_idx" ON "api_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "comments_content_idx" ON "comments" USING btree ("report_content_id","created_at","id");--> statement-breakpoint
CREATE INDEX "deliveries_recipient_idx" ON "deliveries" USING btree ("recipient_user_id","sent_at");--> statement-breakpoint
CREATE INDEX "deliveries_content_idx" ON "deliveries" USING btree ("report_content_id","recipient_user_id");--> statement-breakpoint
CREATE INDEX "project_members_user_idx" ON "project_members" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "projects_workspace_idx" ON "projects" USING btree ("workspace_id");--> statement-breakpoint
CREATE INDEX "reactions_comment_idx" ON "reactions" USING btree ("comment_id");--> statement-breakpoint
CREATE INDEX "reports_owner_created_idx" ON "reports" USING btree ("owner_user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "reports_workspace_ids_idx" ON "reports" USING gin ("workspace_ids");--> statement-breakpoint
CREATE INDEX "reports_template_idx" ON "reports" USING btree ("template_id");--> statement-breakpoint
CREATE INDEX "sends_report_idx" ON "sends" USING btree ("report_id","sent_at");--> statement-breakpoint
CREATE INDEX "shares_report_idx" ON "shares" USING btree ("report_id","created_by_user_id");--> statement-breakpoint
CREATE INDEX "shares_delivery_idx" ON "shares" USING btree ("delivery_id");--> statement-breakpoint
CREATE INDEX "time_entries_workspace_start_idx" ON "time_entries" USING btree ("workspace_id","start");--> statement-breakpoint
CREATE INDEX "time_entries_user_start_idx" ON "time_entries" USING btree ("user_id","start");--> statement-breakpoint
CREATE INDEX "time_entries_project_start_idx" ON "time_entries" USING btree ("project_id","start");--> statement-breakpoint
CREATE INDEX "time_entries_tags_idx" ON "time_entries" USING gin ("tags");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_lower_key" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "workspace_members_user_idx" ON "workspace_members" USING btree ("user_id");