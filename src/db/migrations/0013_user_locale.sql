-- Billing, a user's locale (docs/api.md "Users and tokens"): a BCP 47 tag in its canonical form,
-- how the user's reports print dates, numbers and money. Existing users get 'en', the column default.
ALTER TABLE "users" ADD COLUMN "locale" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_locale_length" CHECK (char_length("users"."locale") between 1 and 35);