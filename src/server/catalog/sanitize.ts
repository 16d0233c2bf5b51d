import sanitizeHtml from 'sanitize-html';
import { HEADING_ID, knownClasses, LINK_SCHEMES, RICH_TEXT_CLASSES } from '../../contract/rich-text.ts';

/**
 * Product descriptions and other admin-written HTML are cleaned on write: formatting, lists,
 * headings, links, images and tables stay; scripts, event handlers, inline styles and any
 * non-web link scheme (javascript:, data:, vbscript:) go.
 *
 * What is kept is what the back office's editor can hold (src/web/admin/rich-text-schema.ts), in
 * the form it writes: `<b>`/`<i>` become `<strong>`/`<em>`, a table's rows sit in `<tbody>` (its
 * header cells are `<th>`), and a table caption or column group, which the editor cannot show, goes.
 *
 * The information pages' own markup stays too (ADR 0066): sections named by their heading
 * (`aria-labelledby`), the classes the shop styles (contract/rich-text.ts), and `<code>`; so a
 * built-in page opened in the editor and saved is the page it was. A lone paragraph the editor
 * puts in a list item or a table cell is stored as the item's or cell's own text, as the shop
 * writes it.
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
    'section',
    'div',
    'code',
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
    section: ['aria-labelledby'],
    table: ['aria-labelledby'],
  },
  allowedClasses: Object.fromEntries(['div', 'p', 'ul', 'li'].map((tag) => [tag, [...RICH_TEXT_CLASSES]])),
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
    // A div is kept only for a class the shop styles; any other is unwrapped (its content stays).
    div: (tagName, attribs) =>
      knownClasses(attribs.class) ? { tagName, attribs } : { tagName: 'unwrapped-div', attribs: {} },
    section: labelledByHeading,
    table: labelledByHeading,
  },
};

/** A web address (`https://…`) or a path of this shop (`/img/…`): what a browser can show in any page. */
function showableImageSource(src: string | undefined): boolean {
  if (!src) return false;
  return /^https?:\/\/[^/]/i.test(src) || (src.startsWith('/') && !src.startsWith('//'));
}

/**
 * Same-site links (`/shipping`, `#payment`) open in place, and a mail address in the mail program;
 * other sites in a new tab that cannot reach the shop.
 */
function linkAttributes(attribs: sanitizeHtml.Attributes): sanitizeHtml.Attributes {
  const { href = '', title } = attribs;
  const otherSite = /^https?:/i.test(href);
  return {
    ...(href ? { href } : {}),
    ...(title ? { title } : {}),
    ...(otherSite ? { rel: 'noopener noreferrer', target: '_blank' } : {}),
  };
}

/** A section or table keeps `aria-labelledby` naming a heading's id, and nothing else. */
function labelledByHeading(tagName: string, attribs: sanitizeHtml.Attributes): sanitizeHtml.Tag {
  const label = attribs['aria-labelledby'];
  return { tagName, attribs: label && HEADING_ID.test(label) ? { 'aria-labelledby': label } : {} };
}

/** `<li><p>text</p></li>` → `<li>text</li>` (and in cells): the paragraph the editor wraps a lone text in. */
const TRAILING_EMPTY_PARAGRAPHS = /(?:<p><\/p>)+$/;

const LONE_PARAGRAPH = /<(li|td|th)((?:\s[^>]*)?)><p>((?:(?!<\/?p[\s>]).)*?)<\/p><\/\1>/gs;

/** A heading keeps an id that can be a link's target, and nothing else. */
function headingWithId(tagName: string, attribs: sanitizeHtml.Attributes): sanitizeHtml.Tag {
  const { id } = attribs;
  return { tagName, attribs: id && HEADING_ID.test(id) ? { id } : {} };
}

export function sanitizeDescription(html: string): string {
  return (
    sanitizeHtml(html, OPTIONS)
      .trim()
      .replace(LONE_PARAGRAPH, '<$1$2>$3</$1>')
      // The empty paragraph the editor keeps at the end, to type after a table or a section.
      .replace(TRAILING_EMPTY_PARAGRAPHS, '')
  );
}
