/**
 * The spec's order status codes 0..6 and the groups of them the shop's rules speak of, written
 * once for the server (the state machine in src/server/orders/status.ts) and the back office.
 */
export const ORDER_STATUS = {
  current: 0,
  processing: 1,
  cancelled: 2,
  processed: 3,
  readyToShip: 4,
  shipped: 5,
  special: 6,
} as const;

export type OrderStatus = (typeof ORDER_STATUS)[keyof typeof ORDER_STATUS];

/** Statuses of an order whose money arrived: 1 and 3..6. */
export const PAID_STATUSES: readonly OrderStatus[] = [1, 3, 4, 5, 6];

/** Paid orders waiting to be shipped: in processing, processed, ready to ship (special 6 waits for staff to decide). */
export const TO_SHIP_STATUSES: readonly OrderStatus[] = [1, 3, 4];

export const isPaidStatus = (status: number): boolean =>
  (PAID_STATUSES as readonly number[]).includes(status);

export const isToShipStatus = (status: number): boolean =>
  (TO_SHIP_STATUSES as readonly number[]).includes(status);
