import type { AppLoadContext } from 'react-router';
import { countryName } from '../../contract/countries.ts';

/**
 * One of the signed-in user's orders as a page shows it, its country named in the page's language
 * (the country list stays on the server). Anyone else's order, or none, is the domain's NotFound.
 */
export async function orderWithCountryName(context: AppLoadContext, orderId: number) {
  const order = await context.checkout.orders.get(orderId, context.locale);
  return { ...order, delivery_country_name: countryName(order.delivery_country, context.locale) };
}
