-- Billing, rates (docs/api.md "Rates"): hourly rates at four levels (project member, project,
-- workspace member, workspace), each a history of rows by date; a row with minor null ends its
-- level from its date. One row per level and date: the unique key treats null keys as equal
-- (NULLS NOT DISTINCT, from PostgreSQL 15), so concurrent writes for one date make one row.
CREATE TABLE "rates" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"project_id" text,
	"user_id" text,
	"level" text NOT NULL,
	"effective_from" date NOT NULL,
	"currency" text NOT NULL,
	"minor" integer,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rates_level_date_key" UNIQUE NULLS NOT DISTINCT("workspace_id","project_id","user_id","effective_from"),
	CONSTRAINT "rates_level_keys" CHECK (case "rates"."level"
        when 'project_member' then "rates"."project_id" is not null and "rates"."user_id" is not null
        when 'project' then "rates"."project_id" is not null and "rates"."user_id" is null
        when 'workspace_member' then "rates"."project_id" is null and "rates"."user_id" is not null
        when 'workspace' then "rates"."project_id" is null and "rates"."user_id" is null
        else false end),
	CONSTRAINT "rates_currency_code" CHECK ("rates"."currency" ~ '^[A-Z]{3}$'),
	CONSTRAINT "rates_minor_range" CHECK ("rates"."minor" between 0 and 100000000)
);
--> statement-breakpoint
ALTER TABLE "rates" ADD CONSTRAINT "rates_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rates" ADD CONSTRAINT "rates_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rates" ADD CONSTRAINT "rates_project_workspace_fk" FOREIGN KEY ("project_id","workspace_id") REFERENCES "public"."projects"("id","workspace_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "rates_user_idx" ON "rates" USING btree ("user_id");