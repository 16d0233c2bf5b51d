import { type AnchorHTMLAttributes, useEffect } from 'react';
import { useNavigate } from 'react-router';

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & {
  /** An absolute path (`/product/…`), or a query of the current page (`?page=2`). */
  to: string;
  /** Following it replaces the current history entry (a filter switched on the same list). */
  replace?: boolean;
};

/**
 * A link to one of the shop's pages: a plain `<a href>`, which React Router follows in the browser
 * (`useLinkNavigation`) and which works as it is without JavaScript.
 *
 * React Router's own `Link` resolves its path against the route tree, sets up prefetching and a
 * click handler for every link it renders; on the server that is several microseconds per link, and
 * a list page's side panel alone has up to 240 links. The shop's links need none of it: their paths
 * are absolute or a query of the page. `data-link` marks the anchor as one `useLinkNavigation`
 * follows; every route is known to the browser from the start (ADR 0017), so none is discovered.
 */
export function Link(props: LinkProps) {
  return (
    <a
      {...props}
      {...NOT_ANCHOR_PROPS}
      href={props.to}
      data-link=""
      data-replace={props.replace ? '' : undefined}
    />
  );
}

/**
 * `Link`'s own props, blanked in the anchor's props rather than left out by an object rest: V8 copies
 * an object in one step but builds a rest key by key, about 3% of a product page's server time.
 * React leaves the blanked properties out of the markup.
 */
const NOT_ANCHOR_PROPS = { to: undefined, replace: undefined };

/**
 * Follows a plain click on a `Link` with a client-side navigation, as React Router's `Link` does:
 * not when a handler prevented it, nor with a modifier key (new tab, download), nor for links that
 * open elsewhere. A `replace` link, or one to the current URL, replaces the history entry.
 */
export function useLinkNavigation() {
  const navigate = useNavigate();
  useEffect(() => {
    function follow(event: MouseEvent) {
      if (event.defaultPrevented || event.button !== 0) return;
      if (event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
      const link = event.target instanceof Element ? event.target.closest('a[data-link]') : null;
      if (!(link instanceof HTMLAnchorElement) || link.hasAttribute('download')) return;
      if (link.target && link.target !== '_self') return;
      const url = new URL(link.href);
      if (url.origin !== window.location.origin) return;
      event.preventDefault();
      const to = `${url.pathname}${url.search}${url.hash}`;
      const here = `${window.location.pathname}${window.location.search}${window.location.hash}`;
      void navigate(to, { replace: link.dataset.replace !== undefined || to === here });
    }
    // On the window, so the page's own click handlers (React's, on the document) run first.
    window.addEventListener('click', follow);
    return () => window.removeEventListener('click', follow);
  }, [navigate]);
}
