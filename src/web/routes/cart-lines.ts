import type { Route } from './+types/cart-lines';

/** The visitor's basket, for the added-to-cart drawer (components/cart-drawer.tsx). */
export async function loader({ context }: Route.LoaderArgs) {
  return { basket: await context.shopper.basket.get(context.locale) };
}
