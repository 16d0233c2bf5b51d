import { ORDER_STATUS, type OrderStatus } from '../../contract/order-status.ts';
import { Conflict } from '../errors.ts';

export {
  isPaidStatus,
  isToShipStatus,
  ORDER_STATUS,
  type OrderStatus,
  PAID_STATUSES,
  TO_SHIP_STATUSES,
} from '../../contract/order-status.ts';

/**
 * The order state machine: the spec's status codes and every move allowed between them, written
 * once. Each move names who may make it; every path that changes an order's status (payment
 * notifications, the shopper's cancel, the expiry job, staff, refunds) asks this table first, and
 * the back office offers only the moves it allows staff.
 *
 *   0 current ──payment──► 1 in processing ──staff──► 3 processed ──► 4 ready to ship ──► 5 shipped
 *     │                       │  (staff may skip ahead, and move 6 ⇄ 1/3/4/5)
 *     └─shopper/expiry/staff─► 2 cancelled ◄──refund── any paid status (a full refund)
 *                              2 ──payment──► 1 (late money, stock taken back) or 6 (no stock: refund it)
 */

/**
 * Who moves an order: a verified payment notification, the shopper on the cancel page, the
 * expiry job, a staff member in the back office, or a full refund.
 */
export type StatusActor = 'payment' | 'shopper' | 'expiry' | 'staff' | 'refund';

const { current, processing, cancelled, processed, readyToShip, shipped, special } = ORDER_STATUS;

/** from → to → who may make that move. Anything not listed is refused. */
const MOVES: Record<OrderStatus, Partial<Record<OrderStatus, readonly StatusActor[]>>> = {
  [current]: {
    [processing]: ['payment'],
    [cancelled]: ['shopper', 'expiry', 'staff'],
  },
  [processing]: {
    [processed]: ['staff'],
    [readyToShip]: ['staff'],
    [shipped]: ['staff'],
    [special]: ['staff'],
    [cancelled]: ['refund'],
  },
  [processed]: {
    [readyToShip]: ['staff'],
    [shipped]: ['staff'],
    [special]: ['staff'],
    [cancelled]: ['refund'],
  },
  [readyToShip]: {
    [processed]: ['staff'],
    [shipped]: ['staff'],
    [special]: ['staff'],
    [cancelled]: ['refund'],
  },
  [shipped]: {
    [readyToShip]: ['staff'],
    [special]: ['staff'],
    [cancelled]: ['refund'],
  },
  [special]: {
    [processing]: ['staff'],
    [processed]: ['staff'],
    [readyToShip]: ['staff'],
    [shipped]: ['staff'],
    [cancelled]: ['refund'],
  },
  [cancelled]: {
    [processing]: ['payment'],
    [special]: ['payment'],
  },
};

export function canMove(from: number, to: number, actor: StatusActor): boolean {
  return MOVES[from as OrderStatus]?.[to as OrderStatus]?.includes(actor) ?? false;
}

/** The statuses an actor may move an order to from `from`, in code order (what staff are offered). */
export function nextStatuses(from: number, actor: StatusActor = 'staff'): OrderStatus[] {
  const moves = MOVES[from as OrderStatus] ?? {};
  return (Object.keys(moves).map(Number) as OrderStatus[])
    .filter((to) => moves[to]?.includes(actor))
    .sort((a, b) => a - b);
}

/** The 409 every adapter shows when a move is not allowed. */
export const moveRefused = (from: number, to: number): Conflict =>
  new Conflict(
    'order-status-move-refused',
    { status: ['order-status-move-refused'] },
    'order-status-move-refused',
    {
      from,
      to,
    },
  );

export function assertMove(from: number, to: number, actor: StatusActor): void {
  if (!canMove(from, to, actor)) throw moveRefused(from, to);
}
