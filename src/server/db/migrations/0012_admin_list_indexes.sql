CREATE INDEX "order_items_product_idx" ON "order_items" USING btree ("product_id");--> statement-breakpoint
CREATE INDEX "order_items_names_idx" ON "order_items" USING gin (("name_ru" || ' ' || "name_en") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "orders_created_idx" ON "orders" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "product_variants_low_stock_idx" ON "product_variants" USING btree ("product_id") WHERE "product_variants"."quantity" between 1 and 3;--> statement-breakpoint
CREATE INDEX "products_name_ru_idx" ON "products" USING btree ("name_ru","id");--> statement-breakpoint
CREATE INDEX "products_name_en_idx" ON "products" USING btree ("name_en","id");--> statement-breakpoint
CREATE INDEX "products_price_idx" ON "products" USING btree ("price","id");--> statement-breakpoint
CREATE INDEX "products_quantity_idx" ON "products" USING btree ("quantity","id");--> statement-breakpoint
CREATE INDEX "products_hidden_idx" ON "products" USING btree ("id") WHERE not "products"."visible";--> statement-breakpoint
CREATE INDEX "products_admin_search_idx" ON "products" USING gin (("name_ru" || ' ' || "name_en" || ' ' || "link") gin_trgm_ops);