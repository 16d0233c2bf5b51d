import { idParams, promoCodeEdit, promoCodeInput, promoCodePause } from '../../contract/admin.ts';
import { promoCodeListResponse, promoCodeResponse } from '../../contract/admin-answers.ts';
import { defineRoute } from '../http/api.ts';
import { getPromoCode, listPromoCodes, pausePromoCode, savePromoCode } from '../promo/admin.ts';
import type { Services } from '../requests/services.ts';

/** The back office's promo codes (issue 30, ADR 0058): list, create, edit, pause and resume. Staff only. */
export function adminPromoCodeRoutes(services: Services) {
  const { db } = services;
  const staff = { access: 'manager' as const, tags: ['admin'] };
  return [
    defineRoute({
      ...staff,
      method: 'GET',
      url: '/api/admin/promo-codes',
      summary: 'Every promo code with its state, uses, paid orders, their revenue and the discount given',
      response: promoCodeListResponse,
      handler: async () => ({ success: true, promoCodes: await listPromoCodes(db, new Date()) }),
    }),
    defineRoute({
      ...staff,
      method: 'GET',
      url: '/api/admin/promo-codes/:id',
      summary: 'A promo code with the orders placed with it',
      params: idParams,
      response: promoCodeResponse,
      handler: async ({ params }) => ({
        success: true,
        promoCode: await getPromoCode(db, params.id, new Date()),
      }),
    }),
    defineRoute({
      ...staff,
      method: 'POST',
      url: '/api/admin/promo-codes',
      summary: 'Create a promo code (409 promo-code-taken when another code has the name, in any case)',
      body: promoCodeInput,
      response: promoCodeResponse,
      handler: async ({ body, staffId }) => ({
        success: true,
        promoCode: await savePromoCode(db, staffId, body, new Date()),
      }),
    }),
    defineRoute({
      ...staff,
      method: 'PATCH',
      url: '/api/admin/promo-codes/:id',
      summary: 'Edit a promo code over its version (409 record-changed, promo-code-taken)',
      params: idParams,
      body: promoCodeEdit,
      response: promoCodeResponse,
      handler: async ({ params, body, staffId }) => ({
        success: true,
        promoCode: await savePromoCode(db, staffId, body, new Date(), {
          id: params.id,
          version: body.version,
        }),
      }),
    }),
    defineRoute({
      ...staff,
      method: 'POST',
      url: '/api/admin/promo-codes/:id/pause',
      summary: 'Pause (paused=1) or resume a promo code over its version (409 record-changed)',
      params: idParams,
      body: promoCodePause,
      response: promoCodeResponse,
      handler: async ({ params, body, staffId }) => ({
        success: true,
        promoCode: await pausePromoCode(db, staffId, params.id, body, new Date()),
      }),
    }),
  ];
}
