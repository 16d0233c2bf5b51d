CREATE TABLE "product_option_values" (
	"id" serial PRIMARY KEY NOT NULL,
	"option_id" integer NOT NULL,
	"value_ru" text NOT NULL,
	"value_en" text NOT NULL,
	"swatch" text,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "product_option_values_swatch" CHECK ("product_option_values"."swatch" is null or "product_option_values"."swatch" ~ '^#[0-9a-f]{6}$')
);
--> statement-breakpoint
CREATE TABLE "product_options" (
	"id" serial PRIMARY KEY NOT NULL,
	"product_id" integer NOT NULL,
	"kind" text DEFAULT 'other' NOT NULL,
	"name_ru" text NOT NULL,
	"name_en" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_variant_values" (
	"variant_id" integer NOT NULL,
	"option_value_id" integer NOT NULL,
	CONSTRAINT "product_variant_values_variant_id_option_value_id_pk" PRIMARY KEY("variant_id","option_value_id")
);
--> statement-breakpoint
CREATE TABLE "product_variants" (
	"id" serial PRIMARY KEY NOT NULL,
	"product_id" integer NOT NULL,
	"sku" text NOT NULL,
	"price" integer,
	"sale" integer,
	"weight" integer,
	"quantity" integer DEFAULT 0 NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_variants_quantity_not_negative" CHECK ("product_variants"."quantity" >= 0),
	CONSTRAINT "product_variants_price_positive" CHECK ("product_variants"."price" is null or "product_variants"."price" > 0),
	CONSTRAINT "product_variants_sale_below_price" CHECK ("product_variants"."sale" is null or ("product_variants"."price" is not null and "product_variants"."sale" >= 0 and "product_variants"."sale" < "product_variants"."price")),
	CONSTRAINT "product_variants_weight_not_negative" CHECK ("product_variants"."weight" is null or "product_variants"."weight" >= 0)
);
--> statement-breakpoint
CREATE TABLE "stock_alerts" (
	"user_id" integer NOT NULL,
	"variant_id" integer NOT NULL,
	"locale" text NOT NULL,
	"notified_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stock_alerts_user_id_variant_id_pk" PRIMARY KEY("user_id","variant_id")
);
--> statement-breakpoint
ALTER TABLE "categories" ADD COLUMN "size_guide_ru" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "categories" ADD COLUMN "size_guide_en" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "product_images" ADD COLUMN "option_value_id" integer;--> statement-breakpoint
-- Written by hand from here (ADR 0036): every product gets its default variant, which takes over its
-- stock; baskets, orders and refunds then name that variant.
INSERT INTO "product_variants" ("product_id", "sku", "quantity", "created_at", "updated_at")
  SELECT "id", "link", "quantity", "created_at", "updated_at" FROM "products" ORDER BY "id";--> statement-breakpoint
ALTER TABLE "basket_items" ADD COLUMN "variant_id" integer;--> statement-breakpoint
UPDATE "basket_items" SET "variant_id" = "v"."id" FROM "product_variants" "v" WHERE "v"."product_id" = "basket_items"."product_id";--> statement-breakpoint
ALTER TABLE "basket_items" ALTER COLUMN "variant_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "basket_items" DROP CONSTRAINT "basket_items_basket_id_product_id_pk";--> statement-breakpoint
ALTER TABLE "basket_items" ADD CONSTRAINT "basket_items_basket_id_variant_id_pk" PRIMARY KEY("basket_id","variant_id");--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "variant_id" integer;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "sku" text;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "options" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
UPDATE "order_items" SET "variant_id" = "v"."id", "sku" = "v"."sku" FROM "product_variants" "v" WHERE "v"."product_id" = "order_items"."product_id";--> statement-breakpoint
ALTER TABLE "order_items" ALTER COLUMN "sku" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "order_items" DROP CONSTRAINT "order_items_order_id_product_id_pk";--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_order_id_sku_pk" PRIMARY KEY("order_id","sku");--> statement-breakpoint
UPDATE "payment_transactions" SET "restock" = (
  SELECT coalesce(jsonb_agg("item" || jsonb_build_object('variantId', "v"."id")), '[]'::jsonb)
  FROM jsonb_array_elements("payment_transactions"."restock") "item"
  JOIN "product_variants" "v" ON "v"."product_id" = ("item"->>'productId')::integer
) WHERE "restock" <> '[]'::jsonb;--> statement-breakpoint
ALTER TABLE "product_option_values" ADD CONSTRAINT "product_option_values_option_id_product_options_id_fk" FOREIGN KEY ("option_id") REFERENCES "public"."product_options"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_options" ADD CONSTRAINT "product_options_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_variant_values" ADD CONSTRAINT "product_variant_values_variant_id_product_variants_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."product_variants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_variant_values" ADD CONSTRAINT "product_variant_values_option_value_id_product_option_values_id_fk" FOREIGN KEY ("option_value_id") REFERENCES "public"."product_option_values"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_variants" ADD CONSTRAINT "product_variants_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_alerts" ADD CONSTRAINT "stock_alerts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_alerts" ADD CONSTRAINT "stock_alerts_variant_id_product_variants_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."product_variants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "product_option_values_option_idx" ON "product_option_values" USING btree ("option_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "product_option_values_en_unique" ON "product_option_values" USING btree ("option_id","value_en");--> statement-breakpoint
CREATE UNIQUE INDEX "product_option_values_ru_unique" ON "product_option_values" USING btree ("option_id","value_ru");--> statement-breakpoint
CREATE INDEX "product_options_product_idx" ON "product_options" USING btree ("product_id","position");--> statement-breakpoint
CREATE INDEX "product_variant_values_value_idx" ON "product_variant_values" USING btree ("option_value_id");--> statement-breakpoint
CREATE UNIQUE INDEX "product_variants_sku_unique" ON "product_variants" USING btree ("sku");--> statement-breakpoint
CREATE INDEX "product_variants_product_idx" ON "product_variants" USING btree ("product_id","position");--> statement-breakpoint
CREATE INDEX "stock_alerts_waiting_idx" ON "stock_alerts" USING btree ("variant_id") WHERE "stock_alerts"."notified_at" is null;--> statement-breakpoint
ALTER TABLE "basket_items" ADD CONSTRAINT "basket_items_variant_id_product_variants_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."product_variants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_variant_id_product_variants_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."product_variants"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_images" ADD CONSTRAINT "product_images_option_value_id_product_option_values_id_fk" FOREIGN KEY ("option_value_id") REFERENCES "public"."product_option_values"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_items_variant_idx" ON "order_items" USING btree ("variant_id");--> statement-breakpoint
-- products.quantity is the sum of its variants' stock, moved by these triggers only.
CREATE FUNCTION "product_variants_add_stock"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE "products" SET "quantity" = "quantity" - OLD."quantity" WHERE "id" = OLD."product_id";
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    UPDATE "products" SET "quantity" = "quantity" + NEW."quantity" WHERE "id" = NEW."product_id";
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "product_variants_stock_insert" AFTER INSERT ON "product_variants"
  FOR EACH ROW EXECUTE FUNCTION "product_variants_add_stock"();--> statement-breakpoint
CREATE TRIGGER "product_variants_stock_delete" AFTER DELETE ON "product_variants"
  FOR EACH ROW EXECUTE FUNCTION "product_variants_add_stock"();--> statement-breakpoint
CREATE TRIGGER "product_variants_stock_update" AFTER UPDATE OF "quantity", "product_id" ON "product_variants"
  FOR EACH ROW WHEN (OLD."quantity" <> NEW."quantity" OR OLD."product_id" <> NEW."product_id")
  EXECUTE FUNCTION "product_variants_add_stock"();--> statement-breakpoint
CREATE FUNCTION "products_refuse_direct_stock"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF pg_trigger_depth() < 2 THEN
    RAISE EXCEPTION 'products.quantity is the sum of its variants'' stock: change product_variants.quantity';
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "products_stock_from_variants" BEFORE UPDATE OF "quantity" ON "products"
  FOR EACH ROW WHEN (OLD."quantity" <> NEW."quantity")
  EXECUTE FUNCTION "products_refuse_direct_stock"();--> statement-breakpoint
-- A new product comes with its default variant, holding the stock it was inserted with.
CREATE FUNCTION "products_create_default_variant"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "products" SET "quantity" = 0 WHERE "id" = NEW."id";
  INSERT INTO "product_variants" ("product_id", "sku", "quantity")
  VALUES (NEW."id",
    CASE WHEN EXISTS (SELECT 1 FROM "product_variants" WHERE "sku" = NEW."link") THEN NEW."link" || '-' || NEW."id" ELSE NEW."link" END,
    NEW."quantity");
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "products_default_variant" AFTER INSERT ON "products"
  FOR EACH ROW EXECUTE FUNCTION "products_create_default_variant"();--> statement-breakpoint
-- Search also matches a product's option values (colours), weighted as its project and categories.
CREATE OR REPLACE FUNCTION "product_search_document"("product" "products") RETURNS tsvector LANGUAGE sql STABLE AS $$
  SELECT setweight(to_tsvector('russian', $1."name_ru"), 'A')
    || setweight(to_tsvector('english', $1."name_en"), 'A')
    || coalesce((SELECT setweight(to_tsvector('russian', "p"."name_ru"), 'B')
        || setweight(to_tsvector('english', "p"."name_en"), 'B')
      FROM "projects" "p" WHERE "p"."id" = $1."project_id"), '')
    || coalesce((SELECT setweight(to_tsvector('russian', string_agg("c"."name_ru", ' ')), 'B')
        || setweight(to_tsvector('english', string_agg("c"."name_en", ' ')), 'B')
      FROM "product_categories" "pc" JOIN "categories" "c" ON "c"."id" = "pc"."category_id"
      WHERE "pc"."product_id" = $1."id" AND "c"."visible"), '')
    || coalesce((SELECT setweight(to_tsvector('russian', string_agg("v"."value_ru", ' ')), 'B')
        || setweight(to_tsvector('english', string_agg("v"."value_en", ' ')), 'B')
      FROM "product_options" "o" JOIN "product_option_values" "v" ON "v"."option_id" = "o"."id"
      WHERE "o"."product_id" = $1."id"), '')
    || setweight(to_tsvector('russian', regexp_replace($1."description_ru", '<[^>]*>', ' ', 'g')), 'C')
    || setweight(to_tsvector('english', regexp_replace($1."description_en", '<[^>]*>', ' ', 'g')), 'C')
$$;--> statement-breakpoint
CREATE FUNCTION "refresh_search_of_option_value"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'DELETE' THEN
    PERFORM "remember_search_words_of"(NEW."value_ru", NEW."value_en");
  END IF;
  UPDATE "products" SET "search_vector" = "product_search_document"("products")
  WHERE "id" IN (SELECT "product_id" FROM "product_options" WHERE "id" IN (OLD."option_id", NEW."option_id"));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "product_option_values_search" AFTER INSERT OR UPDATE OR DELETE ON "product_option_values"
  FOR EACH ROW EXECUTE FUNCTION "refresh_search_of_option_value"();
