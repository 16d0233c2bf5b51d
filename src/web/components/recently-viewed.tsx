import { useEffect } from 'react';
import { useFetcher } from 'react-router';
import { noteViewed } from '../lib/recently-viewed.ts';
import { useShop } from '../lib/shop.ts';
import type { loader } from '../routes/recently-viewed.ts';
import { ProductGrid } from './product-card.tsx';

/**
 * The other products this browser looked at lately. Drawn once the page runs in the browser, from
 * the browser's own list, so the server's page stays the same for everyone (and cacheable).
 */
export function RecentlyViewed({ productId }: { productId: number }) {
  const { t } = useShop();
  const { load, data } = useFetcher<typeof loader>();
  useEffect(() => {
    const others = noteViewed(productId);
    if (others.length > 0) load(`/recently-viewed?ids=${others.join(',')}`);
  }, [productId, load]);
  // Until the next product's list arrives, the last one may still hold the product now shown.
  const products = (data?.products ?? []).filter((product) => product.id !== productId);
  if (products.length === 0) return null;
  return (
    <section aria-labelledby="recently-viewed-heading" className="recently-viewed">
      <h2 id="recently-viewed-heading">{t('recently-viewed')}</h2>
      <ProductGrid products={products} />
    </section>
  );
}
