import type { MetaDescriptor } from 'react-router';

/** Title, description, canonical URL and Open Graph tags of a page. */
export function seoMeta(page: {
  title: string;
  description: string;
  url: string;
  image?: string | undefined;
  type?: 'website' | 'product';
  siteName: string;
  locale: string;
}): MetaDescriptor[] {
  const title = page.title === page.siteName ? page.title : `${page.title} · ${page.siteName}`;
  return [
    { title },
    { name: 'description', content: page.description },
    { tagName: 'link', rel: 'canonical', href: page.url },
    { property: 'og:title', content: title },
    { property: 'og:description', content: page.description },
    { property: 'og:url', content: page.url },
    { property: 'og:type', content: page.type ?? 'website' },
    { property: 'og:site_name', content: page.siteName },
    { property: 'og:locale', content: page.locale === 'ru' ? 'ru_RU' : 'en_US' },
    ...(page.image ? [{ property: 'og:image', content: page.image }] : []),
    { name: 'twitter:card', content: page.image ? 'summary_large_image' : 'summary' },
  ];
}

/** Plain text of an HTML fragment, shortened for a meta description. */
export function summarize(html: string, length = 160): string {
  const text = html
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length <= length ? text : `${text.slice(0, length - 1).trimEnd()}…`;
}
