import { setProductStock } from '../catalog/staff-stock.ts';
import type { Database } from '../db/client.ts';

/** Sets a product's stock in a test, as staff do: on its one variant (ADR 0036). */
export async function setStock(db: Database, productId: number, quantity: number): Promise<void> {
  await db.transaction((tx) => setProductStock(tx, productId, { set: quantity }));
}
