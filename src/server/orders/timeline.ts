import { asc, eq } from 'drizzle-orm';
import { minorToDecimal } from '../../contract/money.ts';
import { type OrderTimelineEvent, TRACKING_KINDS } from '../../contract/order-timeline.ts';
import type { Executor } from '../db/client.ts';
import {
  mails,
  orderStatusHistory,
  orders,
  paymentTransactions,
  productVariants,
  shipmentEvents,
  shipmentItems,
  shipments,
  staffNotes,
  stockMovements,
  users,
} from '../db/schema.ts';
import { NotFound } from '../errors.ts';

/**
 * One order's timeline (ADR 0067): its status moves with who made them, staff notes, payments and
 * refunds, the mails it sent, the stock it moved, its parcels and their tracking events, read from
 * the tables that record each (no copy is kept), in one chronological feed, oldest first. Events at
 * the same instant keep the order in which one transaction writes them (a status move before the
 * stock it releases and the mail it queues).
 */

const KIND_ORDER: Record<OrderTimelineEvent['kind'], number> = {
  status: 0,
  payment: 1,
  refund: 2,
  shipment: 3,
  tracking: 4,
  stock: 5,
  note: 6,
  mail: 7,
};

type TrackingKind = (typeof TRACKING_KINDS)[number];

const iso = (date: Date) => date.toISOString();
const trackingKind = (kind: string): TrackingKind =>
  (TRACKING_KINDS as readonly string[]).includes(kind) ? (kind as TrackingKind) : 'moving';

export async function orderTimeline(db: Executor, orderId: number): Promise<OrderTimelineEvent[]> {
  const [order] = await db.select({ id: orders.id }).from(orders).where(eq(orders.id, orderId));
  if (!order) throw new NotFound('not-found', { id: ['not-found'] });
  const [statuses, notes, money, sent, stock, parcels, parcelItems, tracking] = await Promise.all([
    db
      .select({
        at: orderStatusHistory.createdAt,
        by: users.email,
        status: orderStatusHistory.status,
        reason: orderStatusHistory.reason,
      })
      .from(orderStatusHistory)
      .leftJoin(users, eq(users.id, orderStatusHistory.changedBy))
      .where(eq(orderStatusHistory.orderId, orderId))
      .orderBy(asc(orderStatusHistory.id)),
    db
      .select({ at: staffNotes.createdAt, by: users.email, body: staffNotes.body })
      .from(staffNotes)
      .leftJoin(users, eq(users.id, staffNotes.authorId))
      .where(eq(staffNotes.orderId, orderId))
      .orderBy(asc(staffNotes.id)),
    db
      .select({
        at: paymentTransactions.createdAt,
        by: users.email,
        kind: paymentTransactions.kind,
        provider: paymentTransactions.provider,
        amount: paymentTransactions.amount,
        currency: paymentTransactions.currency,
        state: paymentTransactions.providerStatus,
        accepted: paymentTransactions.accepted,
      })
      .from(paymentTransactions)
      .leftJoin(users, eq(users.id, paymentTransactions.createdBy))
      .where(eq(paymentTransactions.orderId, orderId))
      .orderBy(asc(paymentTransactions.id)),
    db
      .select({
        at: mails.createdAt,
        template: mails.template,
        to: mails.to,
        subject: mails.subject,
        sentAt: mails.sentAt,
      })
      .from(mails)
      .where(eq(mails.orderId, orderId))
      .orderBy(asc(mails.id)),
    db
      .select({
        at: stockMovements.createdAt,
        by: users.email,
        variantId: stockMovements.variantId,
        delta: stockMovements.delta,
        reason: stockMovements.reason,
        sku: productVariants.sku,
      })
      .from(stockMovements)
      .leftJoin(users, eq(users.id, stockMovements.actorId))
      .leftJoin(productVariants, eq(productVariants.id, stockMovements.variantId))
      .where(eq(stockMovements.orderId, orderId))
      .orderBy(asc(stockMovements.id)),
    db
      .select({
        id: shipments.id,
        at: shipments.createdAt,
        by: users.email,
        carrier: shipments.carrier,
        state: shipments.state,
        trackCode: shipments.trackCode,
      })
      .from(shipments)
      .leftJoin(users, eq(users.id, shipments.createdBy))
      .where(eq(shipments.orderId, orderId))
      .orderBy(asc(shipments.id)),
    db
      .select({ shipment: shipmentItems.shipmentId, sku: shipmentItems.sku, count: shipmentItems.count })
      .from(shipmentItems)
      .where(eq(shipmentItems.orderId, orderId))
      .orderBy(asc(shipmentItems.sku)),
    db
      .select({
        shipment: shipments.id,
        carrier: shipments.carrier,
        trackCode: shipments.trackCode,
        at: shipmentEvents.occurredAt,
        kind: shipmentEvents.kind,
        description: shipmentEvents.description,
        location: shipmentEvents.location,
      })
      .from(shipmentEvents)
      .innerJoin(shipments, eq(shipments.id, shipmentEvents.shipmentId))
      .where(eq(shipments.orderId, orderId))
      .orderBy(asc(shipmentEvents.occurredAt), asc(shipmentEvents.id)),
  ]);

  const events: OrderTimelineEvent[] = [
    ...statuses.map((row) => ({
      kind: 'status' as const,
      at: iso(row.at),
      by: row.by,
      status: row.status,
      reason: row.reason,
    })),
    ...notes.map((row) => ({ kind: 'note' as const, at: iso(row.at), by: row.by, body: row.body })),
    ...money.map((row) =>
      row.kind === 'refund'
        ? {
            kind: 'refund' as const,
            at: iso(row.at),
            by: row.by,
            provider: row.provider,
            amount: minorToDecimal(row.amount),
            currency: row.currency,
            state: row.state,
          }
        : {
            kind: 'payment' as const,
            at: iso(row.at),
            by: null,
            provider: row.provider,
            amount: minorToDecimal(row.amount),
            currency: row.currency,
            state: row.state,
            accepted: row.accepted,
          },
    ),
    ...sent.map((row) => ({
      kind: 'mail' as const,
      at: iso(row.at),
      by: null,
      template: row.template,
      to: row.to,
      subject: row.subject,
      sent_at: row.sentAt ? iso(row.sentAt) : null,
    })),
    ...stock.map((row) => ({
      kind: 'stock' as const,
      at: iso(row.at),
      by: row.by,
      sku: row.sku ?? String(row.variantId),
      delta: row.delta,
      reason: row.reason,
    })),
    ...parcels.map((row) => ({
      kind: 'shipment' as const,
      at: iso(row.at),
      by: row.by,
      shipment: row.id,
      carrier: row.carrier,
      state: row.state,
      track_code: row.trackCode,
      items: parcelItems
        .filter((item) => item.shipment === row.id)
        .map((item) => ({ sku: item.sku, count: item.count })),
    })),
    ...tracking.map((row) => ({
      kind: 'tracking' as const,
      at: iso(row.at),
      by: null,
      shipment: row.shipment,
      carrier: row.carrier,
      track_code: row.trackCode,
      event: trackingKind(row.kind),
      description: row.description,
      location: row.location,
    })),
  ];
  // A stable sort: within a kind, the order each table keeps (its ids).
  return events.sort((a, b) => a.at.localeCompare(b.at) || KIND_ORDER[a.kind] - KIND_ORDER[b.kind]);
}
