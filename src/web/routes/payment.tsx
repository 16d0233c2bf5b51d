import { useShop } from '../lib/shop.ts';
import { PaymentText, paymentDescription } from '../static-pages/payment.tsx';
import { StaticPageArticle, staffText } from '../static-pages/static-page.tsx';
import type { Route } from './+types/payment';

export async function loader({ context }: Route.LoaderArgs) {
  return { text: await staffText(context, 'payment') };
}

export default function PaymentPage({ loaderData }: Route.ComponentProps) {
  const { data, locale, t } = useShop();
  return (
    <StaticPageArticle
      path="/payment"
      title={t('payment')}
      description={paymentDescription(locale)}
      text={loaderData.text}
      builtIn={<PaymentText locale={locale} email={data?.shopEmail ?? ''} />}
    />
  );
}
