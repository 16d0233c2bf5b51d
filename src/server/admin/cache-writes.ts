import type { Services } from '../requests/services.ts';

/** The back office's writes, each followed by dropping from the caches what it changed. */
export function cacheWrites(services: Services) {
  /** A write that shows everywhere (projects, categories, synonyms): done, then every cache is emptied. */
  const write = async <T>(change: Promise<T>) => {
    const result = await change;
    await services.catalog.invalidate();
    return result;
  };
  /**
   * A write to one product: done, then what showed it before and shows it now is dropped (its
   * project or categories may change with it).
   */
  const productWrite = async <T extends { id: number }>(productId: number | null, change: Promise<T>) => {
    // The change runs meanwhile; a refusal it meets is thrown by the await below, never unhandled.
    change.catch(() => undefined);
    const before = productId === null ? [] : await services.catalog.productKeys([productId]);
    const result = await change;
    await services.catalog.productsChanged([result.id], before);
    return result;
  };
  /** A write to an order that may move its stock: done, then what shows its products is dropped. */
  const orderWrite = async <T>(orderId: number, change: Promise<T>) => {
    const result = await change;
    await services.catalog.ordersChanged([orderId]);
    return result;
  };
  return { write, productWrite, orderWrite };
}
