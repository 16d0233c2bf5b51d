import { dashboardResponse } from '../../contract/admin-answers.ts';
import { localeQuery } from '../../contract/catalog.ts';
import { lowStock } from '../catalog/editing.ts';
import { unreadFeedback } from '../feedback/inbox.ts';
import { defineRoute } from '../http/api.ts';
import { requestLocale } from '../http/locale.ts';
import { ordersPerDay, ordersToShip, topProducts } from '../orders/staff-orders.ts';
import type { Services } from '../requests/services.ts';

/**
 * The back office's dashboard: orders and revenue, low stock, orders to ship, unread feedback, top
 * products. Staff only: the API refuses a call (401/403) before reading any input.
 */
export function adminDashboardRoutes(services: Services) {
  const { db } = services;
  const staff = { access: 'manager' as const, tags: ['admin'] };
  return [
    defineRoute({
      ...staff,
      method: 'GET',
      url: '/api/admin/dashboard',
      summary:
        'Orders and revenue per day over 30 and 90 days; low-stock variants; paid orders to ship; unread feedback; top products of 30 days',
      response: dashboardResponse,
      query: localeQuery,
      handler: async ({ query, request }) => {
        const locale = query.locale ?? requestLocale(request);
        const [last30, last90, low, toShip, unread, top] = await Promise.all([
          ordersPerDay(db, 30),
          ordersPerDay(db, 90),
          lowStock(db, locale),
          ordersToShip(db),
          unreadFeedback(db),
          topProducts(db, 30, locale),
        ]);
        return {
          success: true,
          last30,
          last90,
          lowStock: low,
          toShip,
          unreadFeedback: unread,
          topProducts: top,
        };
      },
    }),
  ];
}
