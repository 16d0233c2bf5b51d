CREATE TABLE "staff_notes" (
	"id" serial PRIMARY KEY NOT NULL,
	"customer_id" integer,
	"order_id" integer,
	"author_id" integer,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "staff_notes_one_subject" CHECK (("staff_notes"."customer_id" is null) <> ("staff_notes"."order_id" is null))
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "role" text DEFAULT 'customer' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "blocked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "staff_notes" ADD CONSTRAINT "staff_notes_customer_id_users_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_notes" ADD CONSTRAINT "staff_notes_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_notes" ADD CONSTRAINT "staff_notes_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "staff_notes_customer_idx" ON "staff_notes" USING btree ("customer_id","created_at");--> statement-breakpoint
CREATE INDEX "staff_notes_order_idx" ON "staff_notes" USING btree ("order_id","created_at");--> statement-breakpoint
CREATE INDEX "users_staff_idx" ON "users" USING btree ("role") WHERE "users"."role" <> 'customer';--> statement-breakpoint
-- Written by hand: every administrator of before keeps full rights.
UPDATE "users" SET "role" = 'admin' WHERE "is_admin";
