import { useLocation } from 'react-router';
import { LOCALES, type Locale, localeOfSearch, localizedPath } from '../../contract/locale.ts';
import { useCspNonce } from '../lib/csp-nonce.ts';
import { useShop } from '../lib/shop.ts';

const OPEN_GRAPH_LOCALES: Record<Locale, string> = { ru: 'ru_RU', en: 'en_US' };

/**
 * A page's title and the tags search engines and link previews read, rendered by the page itself.
 * Each language's page has its own address (`?lang=ru`, `?lang=en`), and the address without a
 * language (the visitor's own) is `x-default`; every one of the three is its own canonical, so
 * none points away from an `hreflang` address of its group (ADR 0034, 0047).
 * React puts `<title>`, `<meta>` and `<link>` elements into the document's head wherever they are
 * rendered, on the server and on client navigations alike, so the pages need no `meta` exports
 * and React Router no `<Meta>` pass over every matched route (ADR 0019).
 */
export function PublicPageHead(page: {
  title: string;
  description: string;
  /** The page's canonical address on the shop (`/about`); the shop's public URL goes before it. */
  path: string;
  /** The address of an image for link previews, on the shop. */
  image?: string | undefined;
  type?: 'website' | 'product';
  /** The list pages before and after this one on the shop, for search engines. */
  previous?: string | undefined;
  next?: string | undefined;
  /** Only for pages search engines should follow but not list (search results). */
  noindex?: boolean;
}) {
  const { data, locale, t } = useShop();
  const inAddress = localeOfSearch(useLocation().search) ?? null;
  const absolute = (path: string, language: Locale | null = locale) =>
    `${data?.publicUrl ?? ''}${localizedPath(path, language)}`;
  const url = absolute(page.path, inAddress);
  const siteName = t('site-title');
  const title = page.title === siteName ? page.title : `${page.title} · ${siteName}`;
  return (
    <>
      <title>{title}</title>
      <meta name="description" content={page.description} />
      {page.noindex ? <meta name="robots" content="noindex, follow" /> : null}
      <link rel="canonical" href={url} />
      {LOCALES.map((language) => (
        <link key={language} rel="alternate" hrefLang={language} href={absolute(page.path, language)} />
      ))}
      <link rel="alternate" hrefLang="x-default" href={absolute(page.path, null)} />
      {page.previous ? <link rel="prev" href={absolute(page.previous)} /> : null}
      {page.next ? <link rel="next" href={absolute(page.next)} /> : null}
      <meta property="og:title" content={title} />
      <meta property="og:description" content={page.description} />
      <meta property="og:url" content={url} />
      <meta property="og:type" content={page.type ?? 'website'} />
      <meta property="og:site_name" content={siteName} />
      <meta property="og:locale" content={OPEN_GRAPH_LOCALES[locale]} />
      {LOCALES.filter((language) => language !== locale).map((language) => (
        <meta key={language} property="og:locale:alternate" content={OPEN_GRAPH_LOCALES[language]} />
      ))}
      {page.image ? <meta property="og:image" content={absolute(page.image, null)} /> : null}
      <meta name="twitter:card" content={page.image ? 'summary_large_image' : 'summary'} />
    </>
  );
}

/** The title of a private page (forms, the basket, orders), kept out of search engines. */
export function PrivatePageHead({ title }: { title: string }) {
  const { t } = useShop();
  return (
    <>
      <title>{`${title} · ${t('site-title')}`}</title>
      <meta name="robots" content="noindex" />
    </>
  );
}

/** Structured data (schema.org) for search engines; `<` is escaped so no text can end the script. */
export function JsonLd({ data }: { data: object }) {
  const nonce = useCspNonce();
  return (
    <script
      type="application/ld+json"
      nonce={nonce.script}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: JSON with every `<` escaped
      dangerouslySetInnerHTML={{ __html: JSON.stringify(data).replace(/</g, '\\u003c') }}
    />
  );
}
