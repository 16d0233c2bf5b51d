import type { CatalogWrite } from '../caches/changes.ts';
import { deleteDrop, saveDrop } from '../catalog/drops.ts';
import {
  deleteCategory,
  deleteProduct,
  deleteProject,
  saveCategory,
  saveProduct,
  saveProject,
} from '../catalog/editing.ts';
import { changeProducts } from '../catalog/products-bulk.ts';
import { importProductsCsv } from '../catalog/products-csv/import.ts';
import { addSynonym, deleteSynonym } from '../catalog/search-synonyms.ts';
import { saveProductVariants } from '../catalog/variant-editing.ts';
import { cancelPayment } from '../checkout/payments.ts';
import type { Database } from '../db/client.ts';
import { refreshRefund, refundOrder } from '../orders/refunds.ts';
import { createOrder } from '../orders/service.ts';
import { createShipment, createShipments } from '../orders/shipments.ts';
import { updateOrder } from '../orders/staff-orders.ts';
import { saveStaticPage } from '../pages/service.ts';
import { moderateReview } from '../reviews/moderation.ts';
import { addReview } from '../reviews/service.ts';

/** What the bound writes need of the catalogue's caches (services.ts). */
interface CatalogCaches {
  apply(write: CatalogWrite): Promise<void>;
  productKeys(productIds: readonly number[]): Promise<string[]>;
}

type Write<A extends unknown[], R> = (db: Database, ...args: A) => Promise<R>;

const EVERYTHING = { everything: true } as const;

/**
 * The domains' writes that change what the shop shows, bound to its database and caches (ADR 0071):
 * each one's answer names what it changed (a product, a review's product, an order, the products
 * an order moved), and `changed` says it as a `CatalogWrite`, applied once the write resolves by
 * the one `apply` of services.ts. Routes, actions and jobs call these and never drop a cache.
 */
export function catalogWrites(db: Database, caches: CatalogCaches) {
  /** The write, then its change applied. */
  const bind =
    <A extends unknown[], R>(write: Write<A, R>, changed: (result: R, args: NoInfer<A>) => CatalogWrite) =>
    async (...args: A): Promise<R> => {
      const result = await write(db, ...args);
      await caches.apply(changed(result, args));
      return result;
    };
  /**
   * A write to a product that may move it between lists: what showed it before the write and what
   * shows it after are dropped.
   */
  const bindProduct =
    <A extends unknown[], R>(
      write: Write<A, R>,
      target: (args: NoInfer<A>) => number | null,
      changed: (result: R) => readonly number[],
    ) =>
    async (...args: A): Promise<R> => {
      const productId = target(args);
      const before = productId === null ? [] : await caches.productKeys([productId]);
      const result = await write(db, ...args);
      await caches.apply({ products: changed(result), before });
      return result;
    };
  const everything = () => EVERYTHING;

  return {
    saveProject: bind(saveProject, everything),
    deleteProject: bind(deleteProject, everything),
    saveCategory: bind(saveCategory, everything),
    deleteCategory: bind(deleteCategory, everything),
    changeProducts: bind(changeProducts, everything),
    addSynonym: bind(addSynonym, everything),
    deleteSynonym: bind(deleteSynonym, everything),
    /** Release times and drop membership change what shoppers may see and order. */
    saveDrop: bind(saveDrop, everything),
    deleteDrop: bind(deleteDrop, everything),
    saveStaticPage: bind(saveStaticPage, everything),
    /** A dry run only reports. */
    importProductsCsv: bind(importProductsCsv, (_report, [options]) => (options.dryRun ? null : EVERYTHING)),
    saveProduct: bindProduct(
      saveProduct,
      ([, , , target]) => target?.id ?? null,
      (product) => [product.id],
    ),
    saveProductVariants: bindProduct(
      saveProductVariants,
      ([, productId]) => productId,
      (product) => [product.id],
    ),
    deleteProduct: bindProduct(
      deleteProduct,
      ([, productId]) => productId,
      () => [],
    ),
    /** The product's rating shows on its page and its cards. */
    moderateReview: bind(moderateReview, (review) => ({ products: [review.product.id] })),
    addReview: bind(addReview, (_done, [, input]) => ({ products: [input.product] })),
    createOrder: bind(createOrder, (order) => ({ stockOf: order.movedProducts })),
    /** A cancellation puts the order's units back. */
    updateOrder: bind(updateOrder, (_order, [, orderId]) => ({ ordersOf: [orderId] })),
    /** Units put back in stock show in the shop at once. */
    refundOrder: bind(refundOrder, (_refund, [, refund]) => ({ ordersOf: [refund.orderId] })),
    refreshRefund: bind(refreshRefund, (_state, [, which]) => ({ ordersOf: [which.id] })),
    createShipment: bind(createShipment, (_shipment, [, , orderId]) => ({ ordersOf: [orderId] })),
    createShipments: bind(createShipments, (results) => {
      const shipped = results.filter((result) => result.outcome === 'created').map((result) => result.order);
      return shipped.length > 0 ? { ordersOf: shipped } : null;
    }),
    /** A cancelled order's stock is back. */
    cancelPayment: bind(cancelPayment, (result) =>
      result.status === 1 && result.order !== null ? { ordersOf: [result.order] } : null,
    ),
  };
}

export type CatalogWrites = ReturnType<typeof catalogWrites>;
