import { data } from 'react-router';
import { orNotFound } from '../../lib/load.ts';
import { orderWithCountryName } from '../../lib/order-details.server.ts';
import type { Route } from './+types/history-detail';

/**
 * `GET /order/history/:id`: one of the signed-in user's orders with its items, for the history's
 * details (loaded on first expansion). Anyone else's order, or none, is 404.
 */
export async function loader({ context, params }: Route.LoaderArgs) {
  if (!(await context.account.currentUser())) throw data(null, { status: 401 });
  const id = Number(params.id);
  if (!Number.isInteger(id) || id <= 0) throw data(null, { status: 404 });
  return { order: await orNotFound(orderWithCountryName(context, id)) };
}
