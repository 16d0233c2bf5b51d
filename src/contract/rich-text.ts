/**
 * Rules for the HTML staff write (descriptions, size guides, static pages) that the back office's
 * editor and the server's sanitizer share, so the editor never offers what the server drops.
 */

/** Link schemes a rich text may use; anything else (javascript:, data:, vbscript: …) is refused. */
export const LINK_SCHEMES = ['http', 'https', 'mailto'] as const;

/** A heading's id (the target of a link such as /about#wishlist). */
export const HEADING_ID = /^[a-z][a-z0-9-]{0,60}$/;

/**
 * The classes a staff text may carry: those the shop's stylesheet gives the information pages'
 * own markup (an intro, the payment and delivery method cards, a table that scrolls sideways, the
 * "last updated" line), so a built-in page opened in the editor and saved keeps its look.
 */
export const RICH_TEXT_CLASSES = [
  'static-page__intro',
  'static-page__updated',
  'payment-methods',
  'payment-method',
  'delivery-methods',
  'delivery-method',
  'delivery-method__area',
  'table-scroll',
] as const;

/** The known classes of a `class` attribute, in order, or null when none is known. */
export function knownClasses(value: string | null | undefined): string | null {
  const known = (value ?? '')
    .split(/\s+/)
    .filter((name) => (RICH_TEXT_CLASSES as readonly string[]).includes(name));
  return known.length > 0 ? known.join(' ') : null;
}

export type LinkCheck =
  | { ok: true; href: string }
  | { ok: false; reason: 'scheme'; scheme: string }
  | { ok: false; reason: 'invalid' };

/** `scheme:` at the start, unless what follows the colon is a port (`example.com:8080`). */
const SCHEME = /^([a-z][a-z0-9+.-]*):(?!\d)/i;

/**
 * What a typed link becomes: a same-site address (`/shipping`, `#payment`) as it is, an address
 * with an allowed scheme as it is, an address without a scheme as `https://…`; a refused scheme or
 * something that is no address says why.
 */
export function checkLink(input: string): LinkCheck {
  // Browsers ignore tabs, line breaks and control characters in a URL: `java\tscript:` is `javascript:`.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  const typed = input.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  if (typed === '' || typed.startsWith('//') || /\s/.test(typed)) return { ok: false, reason: 'invalid' };
  if (typed.startsWith('/') || typed.startsWith('#')) return { ok: true, href: typed };
  const scheme = SCHEME.exec(typed)?.[1]?.toLowerCase();
  if (scheme !== undefined && !(LINK_SCHEMES as readonly string[]).includes(scheme)) {
    return { ok: false, reason: 'scheme', scheme };
  }
  const href = scheme === undefined ? `https://${typed}` : typed;
  if (!URL.canParse(href)) return { ok: false, reason: 'invalid' };
  const url = new URL(href);
  // A web address needs a host with a dot in it (`shipping` alone is a typo for `/shipping`).
  if (url.protocol !== 'mailto:' && !url.hostname.includes('.') && url.hostname !== 'localhost') {
    return { ok: false, reason: 'invalid' };
  }
  return { ok: true, href };
}
