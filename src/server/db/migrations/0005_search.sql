CREATE TABLE "search_queries" (
	"day" date NOT NULL,
	"query" text NOT NULL,
	"searches" integer DEFAULT 1 NOT NULL,
	"results" integer NOT NULL,
	CONSTRAINT "search_queries_day_query_pk" PRIMARY KEY("day","query")
);
--> statement-breakpoint
CREATE TABLE "search_synonyms" (
	"id" serial PRIMARY KEY NOT NULL,
	"term" text NOT NULL,
	"meaning" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "products" ALTER COLUMN "search_vector" DROP EXPRESSION;--> statement-breakpoint
CREATE UNIQUE INDEX "search_synonyms_term_meaning_unique" ON "search_synonyms" USING btree ("term","meaning");--> statement-breakpoint
-- Written by hand from here. What search matches of a product, in one place: its name (weight A),
-- its project's and visible categories' names (B), its description without tags (C). The option
-- values of product variants (issue 16) belong here too, weight B, with a trigger on their table
-- like the category links' below.
CREATE FUNCTION "product_search_document"("product" "products") RETURNS tsvector LANGUAGE sql STABLE AS $$
  SELECT setweight(to_tsvector('russian', $1."name_ru"), 'A')
    || setweight(to_tsvector('english', $1."name_en"), 'A')
    || coalesce((SELECT setweight(to_tsvector('russian', "p"."name_ru"), 'B')
        || setweight(to_tsvector('english', "p"."name_en"), 'B')
      FROM "projects" "p" WHERE "p"."id" = $1."project_id"), '')
    || coalesce((SELECT setweight(to_tsvector('russian', string_agg("c"."name_ru", ' ')), 'B')
        || setweight(to_tsvector('english', string_agg("c"."name_en", ' ')), 'B')
      FROM "product_categories" "pc" JOIN "categories" "c" ON "c"."id" = "pc"."category_id"
      WHERE "pc"."product_id" = $1."id" AND "c"."visible"), '')
    || setweight(to_tsvector('russian', regexp_replace($1."description_ru", '<[^>]*>', ' ', 'g')), 'C')
    || setweight(to_tsvector('english', regexp_replace($1."description_en", '<[^>]*>', ' ', 'g')), 'C')
$$;--> statement-breakpoint
CREATE FUNCTION "products_set_search_vector"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."search_vector" := "product_search_document"(NEW);
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "products_search_vector" BEFORE INSERT OR UPDATE OF "name_ru", "name_en", "description_ru", "description_en", "project_id" ON "products"
  FOR EACH ROW EXECUTE FUNCTION "products_set_search_vector"();--> statement-breakpoint
-- Links arrive and go in bulk (seed, CSV import, a category deleted): one update per statement.
CREATE FUNCTION "refresh_search_vectors_of_linked_products"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "products" SET "search_vector" = "product_search_document"("products")
  WHERE "id" IN (SELECT "product_id" FROM "changed_links");
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "product_categories_search_insert" AFTER INSERT ON "product_categories"
  REFERENCING NEW TABLE AS "changed_links" FOR EACH STATEMENT
  EXECUTE FUNCTION "refresh_search_vectors_of_linked_products"();--> statement-breakpoint
CREATE TRIGGER "product_categories_search_delete" AFTER DELETE ON "product_categories"
  REFERENCING OLD TABLE AS "changed_links" FOR EACH STATEMENT
  EXECUTE FUNCTION "refresh_search_vectors_of_linked_products"();--> statement-breakpoint
-- A project or category named or renamed: its products' documents and the typo-correction words.
-- Saves that leave the names (and a category's visibility) alone fire nothing.
CREATE FUNCTION "remember_search_words_of"("name_ru" text, "name_en" text) RETURNS void LANGUAGE sql AS $$
  INSERT INTO "search_words" ("word")
  SELECT DISTINCT "word" FROM unnest(tsvector_to_array(to_tsvector('simple', $1 || ' ' || $2))) AS "word"
  WHERE length("word") >= 3
  ON CONFLICT DO NOTHING
$$;--> statement-breakpoint
CREATE FUNCTION "refresh_search_of_named_project"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "remember_search_words_of"(NEW."name_ru", NEW."name_en");
  UPDATE "products" SET "search_vector" = "product_search_document"("products") WHERE "project_id" = NEW."id";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "projects_search_insert" AFTER INSERT ON "projects"
  FOR EACH ROW EXECUTE FUNCTION "refresh_search_of_named_project"();--> statement-breakpoint
CREATE TRIGGER "projects_search_rename" AFTER UPDATE OF "name_ru", "name_en" ON "projects"
  FOR EACH ROW WHEN (OLD."name_ru" IS DISTINCT FROM NEW."name_ru" OR OLD."name_en" IS DISTINCT FROM NEW."name_en")
  EXECUTE FUNCTION "refresh_search_of_named_project"();--> statement-breakpoint
CREATE FUNCTION "refresh_search_of_named_category"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "remember_search_words_of"(NEW."name_ru", NEW."name_en");
  UPDATE "products" SET "search_vector" = "product_search_document"("products")
  WHERE "id" IN (SELECT "product_id" FROM "product_categories" WHERE "category_id" = NEW."id");
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "categories_search_insert" AFTER INSERT ON "categories"
  FOR EACH ROW EXECUTE FUNCTION "refresh_search_of_named_category"();--> statement-breakpoint
CREATE TRIGGER "categories_search_change" AFTER UPDATE OF "name_ru", "name_en", "visible" ON "categories"
  FOR EACH ROW WHEN (OLD."name_ru" IS DISTINCT FROM NEW."name_ru" OR OLD."name_en" IS DISTINCT FROM NEW."name_en"
    OR OLD."visible" IS DISTINCT FROM NEW."visible")
  EXECUTE FUNCTION "refresh_search_of_named_category"();--> statement-breakpoint
SELECT "remember_search_words_of"("name_ru", "name_en") FROM "projects";--> statement-breakpoint
SELECT "remember_search_words_of"("name_ru", "name_en") FROM "categories";--> statement-breakpoint
UPDATE "products" SET "search_vector" = "product_search_document"("products");
