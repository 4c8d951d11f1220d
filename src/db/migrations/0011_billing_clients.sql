-- Billing, first part (docs/api.md "Clients", "Workspaces and projects", "Time entries"): a
-- workspace's clients (names unique per workspace, ignoring case), a project's client and its
-- billableByDefault, an entry's billable flag, and a workspace's currency and ratesVisibleTo.
-- Existing entries become non-billable, existing projects have no client and are not billable by
-- default, and existing workspaces count in EUR with rates visible to admins: the column defaults.
-- Deleting a client sets client_id alone to null (the column list of ON DELETE SET NULL, from
-- PostgreSQL 15): the project keeps its workspace.
CREATE TABLE "clients" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"name" text NOT NULL,
	"archived" boolean DEFAULT false NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "clients_id_workspace_key" UNIQUE("id","workspace_id"),
	CONSTRAINT "clients_name_length" CHECK (char_length("clients"."name") between 1 and 100)
);
--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "client_id" text;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "billable_by_default" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "time_entries" ADD COLUMN "billable" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "currency" text DEFAULT 'EUR' NOT NULL;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "rates_visible_to" text DEFAULT 'admins' NOT NULL;--> statement-breakpoint
ALTER TABLE "clients" ADD CONSTRAINT "clients_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "clients_workspace_name_lower_key" ON "clients" USING btree ("workspace_id",lower("name"));--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_client_workspace_fk" FOREIGN KEY ("client_id","workspace_id") REFERENCES "public"."clients"("id","workspace_id") ON DELETE SET NULL ("client_id") ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "projects_client_idx" ON "projects" USING btree ("client_id");--> statement-breakpoint
ALTER TABLE "workspaces" ADD CONSTRAINT "workspaces_currency_code" CHECK ("workspaces"."currency" ~ '^[A-Z]{3}$');--> statement-breakpoint
ALTER TABLE "workspaces" ADD CONSTRAINT "workspaces_rates_visible_to_valid" CHECK ("workspaces"."rates_visible_to" in ('admins','members'));