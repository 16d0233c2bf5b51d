import type { ReactNode } from 'react';
import type { AppLoadContext } from 'react-router';
import type { StaticPage } from '../../contract/pages.ts';
import { PublicPageHead } from '../components/page-head.tsx';

/**
 * A static information page's text in the request's language as staff wrote it in the back office
 * (sanitized on save, cached with the catalogue), or '' for the built-in text.
 */
export async function staffText(context: AppLoadContext, page: StaticPage): Promise<string> {
  const { value } = await context.services.catalog.staticPage(page);
  return context.locale === 'ru' ? value.html_ru : value.html_en;
}

/** A static page: its heading, then the staff's text or the built-in one, then what follows it. */
export function StaticPageArticle({
  path,
  title,
  heading = title,
  description,
  text,
  builtIn,
  children,
}: {
  path: string;
  title: string;
  heading?: string;
  description: string;
  /** The staff's HTML, sanitized on save; '' shows `builtIn`. */
  text: string;
  builtIn: ReactNode;
  children?: ReactNode;
}) {
  return (
    <article className="static-page">
      <PublicPageHead title={title} description={description} path={path} />
      <h1>{heading}</h1>
      {text ? (
        // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized on save (catalog/sanitize.ts)
        <div className="static-page__text" dangerouslySetInnerHTML={{ __html: text }} />
      ) : (
        builtIn
      )}
      {children}
    </article>
  );
}
