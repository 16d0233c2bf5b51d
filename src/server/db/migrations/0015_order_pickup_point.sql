-- The chosen Boxberry pickup point; orders placed before stay null and keep the nearest-point lookup.
ALTER TABLE "orders" ADD COLUMN "pickup_point_code" text;