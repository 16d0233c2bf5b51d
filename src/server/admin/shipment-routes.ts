import { z } from 'zod';
import { idParams } from '../../contract/admin.ts';
import {
  orderShipmentsResponse,
  shipmentResponse,
  stalledShipmentsResponse,
} from '../../contract/admin-answers.ts';
import { localeQuery } from '../../contract/catalog.ts';
import {
  shipmentBulkInput,
  shipmentBulkResponse,
  shipmentDocumentParams,
  shipmentInput,
} from '../../contract/customs.ts';
import { translateError, translateErrors } from '../../contract/error-messages.ts';
import { defineRoute } from '../http/api.ts';
import { requestLocale } from '../http/locale.ts';
import { orderShipments, type ShippingSettings, shipmentDocument } from '../orders/shipments.ts';
import type { Services } from '../requests/services.ts';
import { stalledShipments, type TrackingSettings } from '../shipping/tracking.ts';

/** The carriers and the shop's mail, as the shipment service needs them. */
export const shippingSettings = (services: Services): ShippingSettings => ({
  otpravka: services.config.otpravka,
  boxberry: services.config.delivery.boxberry,
  defaultBox: services.config.delivery.parcel.defaultBox,
  shop: services.mailShop,
});

export const trackingSettings = (services: Services): TrackingSettings => ({
  russianPost: services.config.tracking.russianPost,
  boxberry: services.config.delivery.boxberry,
  shop: services.mailShop,
});

/** The order page's shipments (ADR 0057): list, create (idempotent per request), label and CN23 PDFs. */
export function adminShipmentRoutes(services: Services) {
  const { db } = services;
  const staff = { access: 'manager' as const, tags: ['admin'] };
  return [
    defineRoute({
      ...staff,
      method: 'GET',
      url: '/api/admin/shipments/stalled',
      summary: 'Parcels sent and not delivered that have not moved for SHIPMENT_STALLED_DAYS days',
      response: stalledShipmentsResponse,
      handler: async () => ({
        success: true,
        days: services.config.tracking.stalledDays,
        shipments: await stalledShipments(db, services.config.tracking.stalledDays, new Date()),
      }),
    }),
    defineRoute({
      ...staff,
      method: 'POST',
      url: '/api/admin/shipments',
      summary:
        'Ships each order given whole with its carrier (the orders list’s bulk action); answers per order what was made, found made before, or refused and why',
      query: localeQuery,
      body: shipmentBulkInput,
      response: shipmentBulkResponse,
      handler: async ({ query, body, request, staffId }) => {
        const results = await services.writes.createShipments(
          shippingSettings(services),
          staffId,
          body.orders,
        );
        const locale = query.locale ?? requestLocale(request);
        return {
          success: true,
          results: results.map((result) => ({
            order: result.order,
            outcome: result.outcome,
            track_codes: result.trackCodes,
            ...(result.outcome === 'refused'
              ? {
                  message: translateError(locale, result.error.message, result.error.details),
                  errors: translateErrors(locale, result.error.errors, result.error.details),
                }
              : { message: null, errors: {} }),
          })),
        };
      },
    }),
    defineRoute({
      ...staff,
      method: 'GET',
      url: '/api/admin/orders/:id/shipments',
      summary: "The order's shipments, oldest first, and its items not shipped yet",
      params: idParams,
      response: orderShipmentsResponse,
      handler: async ({ params }) => ({ success: true, shipments: await orderShipments(db, params.id) }),
    }),
    defineRoute({
      ...staff,
      method: 'POST',
      url: '/api/admin/orders/:id/shipments',
      summary:
        'Creates a parcel with the order’s carrier for the items given (all left when none); the same request again finds it',
      params: idParams,
      body: shipmentInput,
      response: shipmentResponse,
      handler: async ({ params, body, staffId }) => {
        const shipment = await services.writes.createShipment(
          shippingSettings(services),
          staffId,
          params.id,
          body.items,
        );
        return { success: true, shipment };
      },
    }),
    defineRoute({
      ...staff,
      method: 'GET',
      url: '/api/admin/orders/:id/shipments/:shipment/:form',
      summary: "A shipment's label or CN23 as PDF, from its carrier",
      params: shipmentDocumentParams,
      response: z.string(),
      handler: async ({ params, reply }) =>
        reply
          .type('application/pdf')
          .header(
            'content-disposition',
            `attachment; filename="${params.form}-${params.id}-${params.shipment}.pdf"`,
          )
          .send(
            Buffer.from(
              await shipmentDocument(db, shippingSettings(services), params.id, params.shipment, params.form),
            ),
          ),
    }),
  ];
}
