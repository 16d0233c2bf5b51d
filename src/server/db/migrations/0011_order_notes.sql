-- Written by hand: each order's manager comment becomes the first note of its timeline (its author
-- unknown, its time the order's last change); the shopper's own order comment stays on the order.
INSERT INTO "staff_notes" ("order_id", "author_id", "body", "created_at")
SELECT "id", NULL, "manager_comment", "updated_at" FROM "orders"
WHERE "manager_comment" IS NOT NULL AND btrim("manager_comment") <> '';--> statement-breakpoint
ALTER TABLE "orders" DROP COLUMN "manager_comment";
