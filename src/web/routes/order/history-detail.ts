import { data } from 'react-router';
import { countryName } from '../../../contract/countries.ts';
import { orNotFound } from '../../lib/load.ts';
import type { Route } from './+types/history-detail';

/**
 * `GET /order/history/:id`: one of the signed-in user's orders with its items, for the history's
 * details (loaded on first expansion). Anyone else's order, or none, is 404.
 */
export async function loader({ context, params }: Route.LoaderArgs) {
  const { locale } = context;
  if (!(await context.account.currentUser())) throw data(null, { status: 401 });
  const id = Number(params.id);
  if (!Number.isInteger(id) || id <= 0) throw data(null, { status: 404 });
  const order = await orNotFound(context.checkout.orders.get(id, locale));
  return { order: { ...order, delivery_country_name: countryName(order.delivery_country, locale) } };
}
