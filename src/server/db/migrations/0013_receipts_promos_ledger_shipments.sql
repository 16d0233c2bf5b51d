CREATE TABLE "fiscal_receipts" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"provider" text NOT NULL,
	"purpose" text NOT NULL,
	"refund_id" integer,
	"sno" text,
	"items" jsonb NOT NULL,
	"total" integer NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"external_id" text,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "promo_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"kind" text NOT NULL,
	"value" integer NOT NULL,
	"min_order" integer DEFAULT 0 NOT NULL,
	"starts_at" timestamp with time zone,
	"ends_at" timestamp with time zone,
	"total_limit" integer,
	"per_customer_limit" integer,
	"applies_to_drops" boolean DEFAULT false NOT NULL,
	"project_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"category_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"product_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"uses" integer DEFAULT 0 NOT NULL,
	"paused_at" timestamp with time zone,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "promo_codes_value_positive" CHECK ("promo_codes"."value" > 0),
	CONSTRAINT "promo_codes_percent_range" CHECK ("promo_codes"."kind" <> 'percent' or "promo_codes"."value" <= 100),
	CONSTRAINT "promo_codes_uses_within_limit" CHECK ("promo_codes"."total_limit" is null or "promo_codes"."uses" <= "promo_codes"."total_limit")
);
--> statement-breakpoint
CREATE TABLE "shipment_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"shipment_id" integer NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"code" text NOT NULL,
	"description" text NOT NULL,
	"location" text,
	"kind" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shipment_items" (
	"shipment_id" integer NOT NULL,
	"order_id" integer NOT NULL,
	"sku" text NOT NULL,
	"count" integer NOT NULL,
	"hs_code" text,
	"origin_country" text,
	"customs_description" text,
	"net_weight" integer,
	CONSTRAINT "shipment_items_shipment_id_sku_pk" PRIMARY KEY("shipment_id","sku"),
	CONSTRAINT "shipment_items_count_positive" CHECK ("shipment_items"."count" >= 1)
);
--> statement-breakpoint
CREATE TABLE "shipments" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"carrier" text NOT NULL,
	"request_key" text NOT NULL,
	"state" text DEFAULT 'creating' NOT NULL,
	"external_id" text,
	"batch" text,
	"track_code" text,
	"weight" integer NOT NULL,
	"declared_value" integer NOT NULL,
	"error" text,
	"created_by" integer,
	"last_event_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"tracked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "staff_invitations" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"role" text NOT NULL,
	"token_hash" text NOT NULL,
	"invited_by" integer,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"accepted_by" integer,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stock_movements" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"product_id" integer NOT NULL,
	"variant_id" integer NOT NULL,
	"delta" integer NOT NULL,
	"reason" text NOT NULL,
	"order_id" integer,
	"actor_id" integer,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stock_movements_delta_not_zero" CHECK ("stock_movements"."delta" <> 0)
);
--> statement-breakpoint
ALTER TABLE "baskets" ADD COLUMN "promo_code_id" integer;--> statement-breakpoint
ALTER TABLE "exchange_rates" ADD COLUMN "rate_date" date DEFAULT current_date NOT NULL;--> statement-breakpoint
ALTER TABLE "exchange_rates" ADD COLUMN "set_by" integer;--> statement-breakpoint
ALTER TABLE "mails" ADD COLUMN "order_id" integer;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "discount" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "vat_rate" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "products_amount" integer;--> statement-breakpoint
-- Orders placed before this migration were charged their goods converted as one sum (ADR 0024).
UPDATE "orders" SET "products_amount" = CASE WHEN "currency" = 'USD'
  THEN floor(("products_cost"::bigint * 20000 + round("usd_rate" * 10000)) / (2 * round("usd_rate" * 10000)))::integer
  ELSE "products_cost" END;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "products_amount" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "paypal_order_id" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "promo_code_id" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "discount" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "product_variants" ADD COLUMN "hs_code" text;--> statement-breakpoint
ALTER TABLE "product_variants" ADD COLUMN "origin_country" text;--> statement-breakpoint
ALTER TABLE "product_variants" ADD COLUMN "customs_description" text;--> statement-breakpoint
ALTER TABLE "product_variants" ADD COLUMN "net_weight" integer;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "vat_rate" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "hs_code" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "origin_country" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "customs_description" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "net_weight" integer;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "box_length" integer;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "box_width" integer;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "box_height" integer;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "totp_secret" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "totp_enabled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "totp_recovery_codes" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "fiscal_receipts" ADD CONSTRAINT "fiscal_receipts_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fiscal_receipts" ADD CONSTRAINT "fiscal_receipts_refund_id_payment_transactions_id_fk" FOREIGN KEY ("refund_id") REFERENCES "public"."payment_transactions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promo_codes" ADD CONSTRAINT "promo_codes_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipment_events" ADD CONSTRAINT "shipment_events_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipment_items" ADD CONSTRAINT "shipment_items_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_invitations" ADD CONSTRAINT "staff_invitations_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_invitations" ADD CONSTRAINT "staff_invitations_accepted_by_users_id_fk" FOREIGN KEY ("accepted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_movements" ADD CONSTRAINT "stock_movements_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_movements" ADD CONSTRAINT "stock_movements_variant_id_product_variants_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."product_variants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_movements" ADD CONSTRAINT "stock_movements_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_movements" ADD CONSTRAINT "stock_movements_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "fiscal_receipts_order_idx" ON "fiscal_receipts" USING btree ("order_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "fiscal_receipts_once_per_order" ON "fiscal_receipts" USING btree ("order_id","purpose") WHERE "fiscal_receipts"."purpose" <> 'refund';--> statement-breakpoint
CREATE UNIQUE INDEX "promo_codes_code_unique" ON "promo_codes" USING btree (lower("code"));--> statement-breakpoint
CREATE UNIQUE INDEX "shipment_events_once" ON "shipment_events" USING btree ("shipment_id","occurred_at","code");--> statement-breakpoint
CREATE INDEX "shipment_items_order_idx" ON "shipment_items" USING btree ("order_id","sku");--> statement-breakpoint
CREATE UNIQUE INDEX "shipments_request_unique" ON "shipments" USING btree ("request_key");--> statement-breakpoint
CREATE INDEX "shipments_order_idx" ON "shipments" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "shipments_tracking_idx" ON "shipments" USING btree ("tracked_at") WHERE "shipments"."track_code" is not null and "shipments"."delivered_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "staff_invitations_token_unique" ON "staff_invitations" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "staff_invitations_email_idx" ON "staff_invitations" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "stock_movements_variant_idx" ON "stock_movements" USING btree ("variant_id","created_at");--> statement-breakpoint
CREATE INDEX "stock_movements_product_idx" ON "stock_movements" USING btree ("product_id","created_at");--> statement-breakpoint
CREATE INDEX "stock_movements_order_idx" ON "stock_movements" USING btree ("order_id") WHERE "stock_movements"."order_id" is not null;--> statement-breakpoint
ALTER TABLE "baskets" ADD CONSTRAINT "baskets_promo_code_id_promo_codes_id_fk" FOREIGN KEY ("promo_code_id") REFERENCES "public"."promo_codes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exchange_rates" ADD CONSTRAINT "exchange_rates_set_by_users_id_fk" FOREIGN KEY ("set_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mails" ADD CONSTRAINT "mails_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_promo_code_id_promo_codes_id_fk" FOREIGN KEY ("promo_code_id") REFERENCES "public"."promo_codes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "orders_paypal_order_unique" ON "orders" USING btree ("paypal_order_id");--> statement-breakpoint
CREATE INDEX "orders_promo_code_idx" ON "orders" USING btree ("promo_code_id") WHERE "orders"."promo_code_id" is not null;--> statement-breakpoint
ALTER TABLE "product_variants" ADD CONSTRAINT "product_variants_hs_code_digits" CHECK ("product_variants"."hs_code" is null or "product_variants"."hs_code" ~ '^[0-9]{6,10}$');--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_hs_code_digits" CHECK ("products"."hs_code" is null or "products"."hs_code" ~ '^[0-9]{6,10}$');--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_box_positive" CHECK (("products"."box_length" is null or "products"."box_length" > 0) and ("products"."box_width" is null or "products"."box_width" > 0) and ("products"."box_height" is null or "products"."box_height" > 0));--> statement-breakpoint
UPDATE "exchange_rates" SET "rate_date" = ("fetched_at" at time zone 'Europe/Moscow')::date;--> statement-breakpoint
INSERT INTO "stock_movements" ("product_id", "variant_id", "delta", "reason", "note")
  SELECT "product_id", "id", "quantity", 'initial', 'stock before the ledger' FROM "product_variants" WHERE "quantity" <> 0;
