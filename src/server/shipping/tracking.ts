import { and, asc, desc, eq, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Database, Executor } from '../db/client.ts';
import { orders, shipmentEvents, shipments } from '../db/schema.ts';
import { type JobHandler, scheduleRecurring } from '../jobs/queue.ts';
import { queueMail } from '../mail/outbox.ts';
import type { MailShop } from '../mail/templates.ts';
import type { BoxberrySettings } from '../providers/boxberry.ts';
import {
  boxberryHistory,
  type RussianPostTrackingSettings,
  russianPostHistory,
  type TrackingEvent,
} from '../providers/parcel-tracking.ts';

/**
 * Tracking (ADR 0057): a recurring job asks the carriers about every parcel sent and not yet
 * delivered, the least recently asked first. Each event is kept once (`shipment_events_once`); a
 * new "waiting at the post office / pickup point" event mails the shopper in the same
 * transaction, and a delivery marks the parcel delivered (the order's status codes stay as they
 * are: "delivered" is an event of its timeline). A carrier that cannot be reached leaves the
 * parcel for the next run.
 */

export interface TrackingSettings {
  russianPost: RussianPostTrackingSettings;
  boxberry: BoxberrySettings;
  fetchImpl?: typeof fetch;
  shop?: MailShop;
}

export const TRACKING_JOB = 'shipments.track';
/** Parcels asked about per run: the carriers' services are slow and rate-limited. */
export const TRACKING_BATCH = 50;

type Shipment = typeof shipments.$inferSelect;

async function history(settings: TrackingSettings, shipment: Shipment): Promise<TrackingEvent[]> {
  const code = shipment.trackCode ?? '';
  return shipment.carrier === 'russian_post'
    ? russianPostHistory(settings.russianPost, code, settings.fetchImpl)
    : boxberryHistory(settings.boxberry, code, settings.fetchImpl);
}

/** Keeps a parcel's new events; mails a new "waiting" once and marks a delivery. Answers the new ones. */
export async function recordEvents(
  db: Database,
  shipment: Shipment,
  events: readonly TrackingEvent[],
  now: Date,
  shop?: MailShop,
): Promise<TrackingEvent[]> {
  return db.transaction(async (tx) => {
    const added =
      events.length === 0
        ? []
        : await tx
            .insert(shipmentEvents)
            .values(events.map((event) => ({ shipmentId: shipment.id, ...event })))
            .onConflictDoNothing()
            .returning();
    const latest = events.reduce<Date | null>(
      (last, event) => (last === null || event.occurredAt > last ? event.occurredAt : last),
      shipment.lastEventAt,
    );
    const delivered = added.find((event) => event.kind === 'delivered');
    await tx
      .update(shipments)
      .set({
        trackedAt: now,
        lastEventAt: latest,
        ...(delivered ? { deliveredAt: delivered.occurredAt } : {}),
        updatedAt: now,
      })
      .where(eq(shipments.id, shipment.id));
    const waiting = added.find((event) => event.kind === 'waiting');
    if (waiting && !delivered) {
      const [order] = await tx.select().from(orders).where(eq(orders.id, shipment.orderId));
      if (order) {
        await queueMail(
          tx,
          {
            template: 'parcel-waiting',
            locale: order.locale === 'en' ? 'en' : 'ru',
            to: order.email,
            data: {
              orderId: order.id,
              trackCode: shipment.trackCode ?? '',
              deliveryMethod: order.deliveryMethod,
              place: waiting.location,
            },
          },
          shop,
        );
      }
    }
    return added.map(({ occurredAt, code, description, location, kind }) => ({
      occurredAt,
      code,
      description,
      location,
      kind: kind as TrackingEvent['kind'],
    }));
  });
}

/** One run: the parcels to track, each asked once; answers how many were asked and how many failed. */
export async function trackShipments(db: Database, settings: TrackingSettings, now: Date) {
  const due = await db
    .select()
    .from(shipments)
    .where(and(eq(shipments.state, 'created'), isNotNull(shipments.trackCode), isNull(shipments.deliveredAt)))
    .orderBy(sql`${shipments.trackedAt} asc nulls first`, asc(shipments.id))
    .limit(TRACKING_BATCH);
  let failed = 0;
  for (const shipment of due) {
    let events: TrackingEvent[];
    try {
      events = await history(settings, shipment);
    } catch {
      failed += 1;
      continue;
    }
    await recordEvents(db, shipment, events, now, settings.shop);
  }
  return { asked: due.length, failed };
}

export function trackingHandler(db: Database, settings: TrackingSettings): JobHandler {
  return async (_payload, { now }) => {
    await trackShipments(db, settings, now);
  };
}

/**
 * Test mode only (registered with the sandboxes): `POST /sandbox/tracking/run` runs the tracking
 * job now, so a browser journey sees the simulators' events without waiting for the schedule.
 */
export const trackingSandbox = (db: Database, settings: TrackingSettings) => async (app: FastifyInstance) => {
  app.post(TRACKING_SANDBOX_PATH, async () => trackShipments(db, settings, new Date()));
};
export const TRACKING_SANDBOX_PATH = '/sandbox/tracking/run';

export const scheduleTracking = (db: Executor, everyMs: number, clock?: () => Date) =>
  scheduleRecurring(db, TRACKING_JOB, everyMs, clock);

/** A shipment's events, newest first, for the order page and the shopper's history. */
export async function shipmentEventsOf(db: Executor, shipmentId: number) {
  return await db
    .select({
      occurred_at: shipmentEvents.occurredAt,
      description: shipmentEvents.description,
      location: shipmentEvents.location,
      kind: shipmentEvents.kind,
    })
    .from(shipmentEvents)
    .where(eq(shipmentEvents.shipmentId, shipmentId))
    .orderBy(desc(shipmentEvents.occurredAt), desc(shipmentEvents.id));
}

/** The parcels of an order with their tracking events, for the shopper's order history. */
export async function orderParcels(db: Executor, orderId: number) {
  const rows = await db
    .select()
    .from(shipments)
    .where(and(eq(shipments.orderId, orderId), eq(shipments.state, 'created')))
    .orderBy(asc(shipments.id));
  return Promise.all(
    rows.map(async (row) => ({
      carrier: row.carrier,
      track_code: row.trackCode,
      delivered_at: row.deliveredAt?.toISOString() ?? null,
      events: (await shipmentEventsOf(db, row.id)).map((event) => ({
        ...event,
        occurred_at: event.occurred_at.toISOString(),
      })),
    })),
  );
}

/** Parcels sent and not delivered whose last news (or creation) is older than `days`: the manager's list. */
export async function stalledShipments(db: Executor, days: number, now: Date) {
  const since = new Date(now.getTime() - days * 24 * 3600_000);
  return await db
    .select({
      id: shipments.id,
      order: shipments.orderId,
      carrier: shipments.carrier,
      track_code: shipments.trackCode,
      last_event_at: shipments.lastEventAt,
      created_at: shipments.createdAt,
    })
    .from(shipments)
    .where(
      and(
        eq(shipments.state, 'created'),
        isNull(shipments.deliveredAt),
        lt(sql`coalesce(${shipments.lastEventAt}, ${shipments.createdAt})`, since),
      ),
    )
    .orderBy(sql`coalesce(${shipments.lastEventAt}, ${shipments.createdAt}) asc`);
}
