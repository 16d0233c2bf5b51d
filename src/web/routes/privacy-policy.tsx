import { useShop } from '../lib/shop.ts';
import { PrivacyPolicyText, privacyPolicyDescription } from '../static-pages/privacy-policy.tsx';
import { StaticPageArticle, staffText } from '../static-pages/static-page.tsx';
import type { Route } from './+types/privacy-policy';

export async function loader({ context }: Route.LoaderArgs) {
  return { text: await staffText(context, 'privacy-policy') };
}

export default function PrivacyPolicyPage({ loaderData }: Route.ComponentProps) {
  const { data, locale, t } = useShop();
  return (
    <StaticPageArticle
      path="/privacy-policy"
      title={t('privacy-policy')}
      description={privacyPolicyDescription(locale)}
      text={loaderData.text}
      builtIn={<PrivacyPolicyText locale={locale} email={data?.shopEmail ?? ''} />}
    />
  );
}
