DROP INDEX "payment_transactions_replay_unique";--> statement-breakpoint
ALTER TABLE "categories" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "shipped_mail_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "checkout_key" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_transactions" ADD COLUMN "kind" text DEFAULT 'payment' NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_transactions" ADD COLUMN "accepted" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_transactions" ADD COLUMN "created_by" integer;--> statement-breakpoint
ALTER TABLE "payment_transactions" ADD COLUMN "restock" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_transactions" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_transactions" ADD CONSTRAINT "payment_transactions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "orders_checkout_key_unique" ON "orders" USING btree ("user_id","checkout_key");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_transactions_replay_unique" ON "payment_transactions" USING btree ("provider","kind","external_id","provider_status") WHERE "payment_transactions"."accepted";--> statement-breakpoint
-- Written by hand: a product on sale without a price was orderable at 0; hide it until staff price it.
UPDATE "products" SET "visible" = false WHERE "price" <= 0 AND "visible" AND NOT "envisioned";--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_orderable_has_price" CHECK ("products"."price" > 0 or not "products"."visible" or "products"."envisioned");