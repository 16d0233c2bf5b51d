import { readProductIds } from '../lib/recently-viewed.ts';
import type { Route } from './+types/recently-viewed';

/** The cards of the products a shopper viewed (`?ids=3,1,7`, from their browser), hidden ones left out. */
export async function loader({ context, url }: Route.LoaderArgs) {
  const ids = readProductIds(url.searchParams.get('ids'));
  return { products: ids.length === 0 ? [] : await context.services.catalog.cards(context.locale, ids) };
}
