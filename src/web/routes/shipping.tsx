import { useShop } from '../lib/shop.ts';
import { ShippingText, shippingDescription } from '../static-pages/shipping.tsx';
import { StaticPageArticle, staffText } from '../static-pages/static-page.tsx';
import type { Route } from './+types/shipping';

export async function loader({ context }: Route.LoaderArgs) {
  return { text: await staffText(context, 'shipping') };
}

export default function ShippingPage({ loaderData }: Route.ComponentProps) {
  const { data, locale, t } = useShop();
  return (
    <StaticPageArticle
      path="/shipping"
      title={t('shipping')}
      description={shippingDescription(locale)}
      text={loaderData.text}
      builtIn={<ShippingText locale={locale} email={data?.shopEmail ?? ''} />}
    />
  );
}
