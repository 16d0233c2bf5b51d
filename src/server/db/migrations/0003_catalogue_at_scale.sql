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
-- New products arrive in bulk (seed, CSV import): one statement-level insert per statement. A
-- rename is one row at a time, and updates that leave the names alone (stock) fire nothing.
CREATE FUNCTION "remember_search_words_of_new_products"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "search_words" ("word")
  SELECT DISTINCT "word"
  FROM "new_products",
    unnest(tsvector_to_array(to_tsvector('simple', "name_ru" || ' ' || "name_en"))) AS "word"
  WHERE length("word") >= 3
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "remember_search_words_of_renamed_product"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "search_words" ("word")
  SELECT "word"
  FROM unnest(tsvector_to_array(to_tsvector('simple', NEW."name_ru" || ' ' || NEW."name_en"))) AS "word"
  WHERE length("word") >= 3
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "products_search_words_insert" AFTER INSERT ON "products"
  REFERENCING NEW TABLE AS "new_products" FOR EACH STATEMENT
  EXECUTE FUNCTION "remember_search_words_of_new_products"();--> statement-breakpoint
CREATE TRIGGER "products_search_words_rename" AFTER UPDATE OF "name_ru", "name_en" ON "products"
  FOR EACH ROW WHEN (OLD."name_ru" IS DISTINCT FROM NEW."name_ru" OR OLD."name_en" IS DISTINCT FROM NEW."name_en")
  EXECUTE FUNCTION "remember_search_words_of_renamed_product"();--> statement-breakpoint
INSERT INTO "search_words" ("word")
SELECT DISTINCT "word"
FROM "products", unnest(tsvector_to_array(to_tsvector('simple', "name_ru" || ' ' || "name_en"))) AS "word"
WHERE length("word") >= 3
ON CONFLICT DO NOTHING;
