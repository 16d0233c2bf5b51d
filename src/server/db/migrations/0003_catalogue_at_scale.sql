CREATE TABLE "search_words" (
	"word" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
DROP INDEX "products_name_trgm_idx";--> statement-breakpoint
DROP INDEX "product_categories_category_idx";--> statement-breakpoint
CREATE INDEX "search_words_trgm_idx" ON "search_words" USING gin ("word" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "products_week_sale_idx" ON "products" USING btree ("position","id") WHERE "products"."week_sale";--> statement-breakpoint
CREATE INDEX "product_categories_category_idx" ON "product_categories" USING btree ("category_id","product_id");--> statement-breakpoint
-- Written by hand: keep search_words filled from product names (see the table's comment in schema.ts).
CREATE FUNCTION "remember_search_words"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "search_words" ("word")
  SELECT DISTINCT "word"
  FROM "changed_products",
    unnest(tsvector_to_array(to_tsvector('simple', "name_ru" || ' ' || "name_en"))) AS "word"
  WHERE length("word") >= 3
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "products_search_words_insert" AFTER INSERT ON "products"
  REFERENCING NEW TABLE AS "changed_products" FOR EACH STATEMENT EXECUTE FUNCTION "remember_search_words"();--> statement-breakpoint
CREATE TRIGGER "products_search_words_update" AFTER UPDATE ON "products"
  REFERENCING NEW TABLE AS "changed_products" FOR EACH STATEMENT EXECUTE FUNCTION "remember_search_words"();--> statement-breakpoint
INSERT INTO "search_words" ("word")
SELECT DISTINCT "word"
FROM "products", unnest(tsvector_to_array(to_tsvector('simple', "name_ru" || ' ' || "name_en"))) AS "word"
WHERE length("word") >= 3
ON CONFLICT DO NOTHING;
