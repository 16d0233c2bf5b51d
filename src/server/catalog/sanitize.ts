import sanitizeHtml from 'sanitize-html';
import { HEADING_ID, LINK_SCHEMES } from '../../contract/rich-text.ts';

/**
 * Product descriptions and other admin-written HTML are cleaned on write: formatting, lists,
 * headings, links, images and tables stay; scripts, event handlers, inline styles and any
 * non-web link scheme (javascript:, data:, vbscript:) go.
 *
 * What is kept is what the back office's editor can hold (src/web/admin/rich-text-schema.ts), in
 * the form it writes: `<b>`/`<i>` become `<strong>`/`<em>`, a table's rows sit in `<tbody>` (its
 * header cells are `<th>`), and a table caption or column group, which the editor cannot show, goes.
 *
 * A picture that cannot show (`<img src="x">`, pasted from another page, or one whose link was
 * dropped as unsafe) goes; a picture without a text alternative gets `alt=""` (decorative), so the
 * shop's pages never carry a broken image or fail axe's `image-alt`.
 */

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'strong',
    'em',
    'u',
    'ul',
    'ol',
    'li',
    'h2',
    'h3',
    'h4',
    'blockquote',
    'a',
    'img',
    'table',
    'tbody',
    'tr',
    'th',
    'td',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'rel', 'target'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    th: ['colspan', 'rowspan', 'scope'],
    td: ['colspan', 'rowspan'],
    h2: ['id'],
    h3: ['id'],
    h4: ['id'],
  },
  allowedSchemes: [...LINK_SCHEMES],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  // `//host/x` would silently pick the page's scheme and host; only explicit or same-site URLs.
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  exclusiveFilter: (frame) => frame.tag === 'img' && !showableImageSource(frame.attribs.src),
  // A caption's text has no place once the caption goes.
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'caption'],
  transformTags: {
    a: (tagName, attribs) => ({ tagName, attribs: linkAttributes(attribs) }),
    img: (tagName, attribs) => ({ tagName, attribs: { ...attribs, alt: attribs.alt?.trim() ?? '' } }),
    b: 'strong',
    i: 'em',
    thead: 'tbody',
    tfoot: 'tbody',
    h2: headingWithId,
    h3: headingWithId,
    h4: headingWithId,
  },
};

/** A web address (`https://…`) or a path of this shop (`/img/…`): what a browser can show in any page. */
function showableImageSource(src: string | undefined): boolean {
  if (!src) return false;
  return /^https?:\/\/[^/]/i.test(src) || (src.startsWith('/') && !src.startsWith('//'));
}

/** Same-site links (`/shipping`, `#payment`) open in place; others in a new tab that cannot reach the shop. */
function linkAttributes(attribs: sanitizeHtml.Attributes): sanitizeHtml.Attributes {
  const { href = '', title } = attribs;
  const sameSite = (href.startsWith('/') && !href.startsWith('//')) || href.startsWith('#');
  return {
    ...(href ? { href } : {}),
    ...(title ? { title } : {}),
    ...(sameSite ? {} : { rel: 'noopener noreferrer', target: '_blank' }),
  };
}

/** A heading keeps an id that can be a link's target, and nothing else. */
function headingWithId(tagName: string, attribs: sanitizeHtml.Attributes): sanitizeHtml.Tag {
  const { id } = attribs;
  return { tagName, attribs: id && HEADING_ID.test(id) ? { id } : {} };
}

export function sanitizeDescription(html: string): string {
  return sanitizeHtml(html, OPTIONS).trim();
}
