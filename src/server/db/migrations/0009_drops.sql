CREATE TABLE "drops" (
	"id" serial PRIMARY KEY NOT NULL,
	"name_ru" text NOT NULL,
	"name_en" text NOT NULL,
	"release_at" timestamp with time zone NOT NULL,
	"hold_minutes" integer,
	"per_customer_limit" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "drops_hold_minutes_range" CHECK ("drops"."hold_minutes" is null or "drops"."hold_minutes" between 1 and 1440),
	CONSTRAINT "drops_limit_positive" CHECK ("drops"."per_customer_limit" is null or "drops"."per_customer_limit" >= 1)
);
--> statement-breakpoint
CREATE TABLE "release_reminders" (
	"user_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"locale" text NOT NULL,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "release_reminders_user_id_product_id_pk" PRIMARY KEY("user_id","product_id")
);
--> statement-breakpoint
ALTER TABLE "product_variants" ADD COLUMN "per_customer_limit" integer;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "release_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "drop_id" integer;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "per_customer_limit" integer;--> statement-breakpoint
ALTER TABLE "release_reminders" ADD CONSTRAINT "release_reminders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "release_reminders" ADD CONSTRAINT "release_reminders_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "drops_release_idx" ON "drops" USING btree ("release_at");--> statement-breakpoint
CREATE INDEX "release_reminders_waiting_idx" ON "release_reminders" USING btree ("product_id") WHERE "release_reminders"."sent_at" is null;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_drop_id_drops_id_fk" FOREIGN KEY ("drop_id") REFERENCES "public"."drops"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "products_release_idx" ON "products" USING btree ("release_at") WHERE "products"."release_at" is not null;--> statement-breakpoint
CREATE INDEX "products_drop_idx" ON "products" USING btree ("drop_id") WHERE "products"."drop_id" is not null;--> statement-breakpoint
ALTER TABLE "product_variants" ADD CONSTRAINT "product_variants_limit_positive" CHECK ("product_variants"."per_customer_limit" is null or "product_variants"."per_customer_limit" >= 1);--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_limit_positive" CHECK ("products"."per_customer_limit" is null or "products"."per_customer_limit" >= 1);--> statement-breakpoint
-- A product in a drop is released with it: its release_at is the drop's (ADR 0041).
CREATE FUNCTION "products_release_with_drop"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."drop_id" IS NOT NULL THEN
    SELECT "release_at" INTO NEW."release_at" FROM "drops" WHERE "id" = NEW."drop_id";
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "products_release_with_drop" BEFORE INSERT OR UPDATE OF "drop_id", "release_at" ON "products"
  FOR EACH ROW EXECUTE FUNCTION "products_release_with_drop"();--> statement-breakpoint
CREATE FUNCTION "drops_release_products"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "products" SET "release_at" = NEW."release_at"
    WHERE "drop_id" = NEW."id" AND "release_at" IS DISTINCT FROM NEW."release_at";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "drops_release_products" AFTER UPDATE OF "release_at" ON "drops"
  FOR EACH ROW EXECUTE FUNCTION "drops_release_products"();
