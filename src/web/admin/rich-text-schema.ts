import { Extension, type Extensions, mergeAttributes, Node } from '@tiptap/core';
import Image from '@tiptap/extension-image';
import { ListItem } from '@tiptap/extension-list';
import { TableHeader, TableKit } from '@tiptap/extension-table';
import StarterKit from '@tiptap/starter-kit';
import { checkLink, HEADING_ID, knownClasses } from '../../contract/rich-text.ts';

/**
 * What the back office's rich text editor can hold: exactly what the shop's sanitizer keeps
 * (src/server/catalog/sanitize.ts), so opening a description, a size guide or a static page and
 * saving it again never drops anything (rich-text-schema.test.ts holds the two lists together).
 * No React here: the same extensions run headless in that test, and the information pages' own
 * markup (sections, the classes the shop styles) round-trips through them (static-pages-round-trip.test.tsx).
 */

/** An `aria-labelledby` naming a heading's id, or null. */
const headingLabel = (element: HTMLElement) => {
  const label = element.getAttribute('aria-labelledby');
  return label && HEADING_ID.test(label) ? label : null;
};

/** A section of a page, named by its heading (`<section aria-labelledby="…">`): a block of blocks. */
const Section = Node.create({
  name: 'section',
  group: 'block',
  content: 'block+',
  defining: true,
  addAttributes() {
    return {
      'aria-labelledby': { default: null, parseHTML: headingLabel },
    };
  },
  parseHTML() {
    return [{ tag: 'section' }];
  },
  renderHTML({ HTMLAttributes }) {
    return ['section', mergeAttributes(HTMLAttributes), 0];
  },
  // Inside the editor a section is a plain block: a landmark there would repeat the page's own
  // (the English and Russian editors hold the same sections, axe's landmark-unique). What is
  // saved is still the `<section>` above.
  addNodeView() {
    return () => {
      const dom = document.createElement('div');
      dom.className = 'rich-text-section';
      return { dom, contentDOM: dom };
    };
  },
});

/** A `<div>` with a class the shop styles (an intro, a table that scrolls); other divs are not kept. */
const StyledBlock = Node.create({
  name: 'styledBlock',
  group: 'block',
  content: 'block+',
  defining: true,
  addAttributes() {
    return { class: { default: null, parseHTML: (element: HTMLElement) => knownClasses(element.className) } };
  },
  parseHTML() {
    return [
      { tag: 'div', getAttrs: (element: HTMLElement) => (knownClasses(element.className) ? null : false) },
    ];
  },
  renderHTML({ HTMLAttributes }) {
    return ['div', mergeAttributes(HTMLAttributes), 0];
  },
});

/** A list item may open with a heading (a payment or delivery method's card: its name, then its text). */
const CardListItem = ListItem.extend({ content: '(paragraph | heading) block*' });

/** The classes the shop styles, kept on paragraphs, lists and items (`class="payment-method"`). */
const StyledClasses = Extension.create({
  name: 'styledClasses',
  addGlobalAttributes() {
    return [
      {
        types: ['paragraph', 'bulletList', 'orderedList', 'listItem'],
        attributes: {
          class: {
            default: null,
            parseHTML: (element: HTMLElement) => knownClasses(element.className),
            renderHTML: (attributes: { class?: string | null }) =>
              attributes.class ? { class: attributes.class } : {},
          },
        },
      },
      {
        // A table named by the heading above it.
        types: ['table'],
        attributes: {
          'aria-labelledby': { default: null, parseHTML: headingLabel },
        },
      },
    ];
  },
});

/** A header cell's `scope` (`col` or `row`): what a screen reader says the header labels. */
const ScopedTableHeader = TableHeader.extend({
  addAttributes() {
    return {
      ...this.parent?.(),
      scope: {
        default: null,
        parseHTML: (element: HTMLElement) => {
          const scope = element.getAttribute('scope');
          return scope === 'col' || scope === 'row' ? scope : null;
        },
      },
    };
  },
});

/** A heading's `id` (the target of a link such as /about#wishlist) is kept, not edited. */
const HeadingIds = Extension.create({
  name: 'headingIds',
  addGlobalAttributes() {
    return [
      {
        types: ['heading'],
        attributes: {
          id: {
            default: null,
            parseHTML: (element: HTMLElement) => {
              const id = element.getAttribute('id');
              return id && HEADING_ID.test(id) ? id : null;
            },
          },
        },
      },
    ];
  },
});

export function richTextExtensions(): Extensions {
  return [
    StarterKit.configure({
      heading: { levels: [2, 3, 4] },
      codeBlock: false,
      listItem: false,
      strike: false,
      horizontalRule: false,
      link: {
        openOnClick: false,
        autolink: true,
        // A pasted or loaded link with a scheme the shop refuses does not become a link.
        isAllowedUri: (url) => checkLink(url).ok,
      },
    }),
    // Inline, so a picture stays where it stands in a paragraph.
    Image.configure({ inline: true }),
    TableKit.configure({ table: { resizable: false }, tableHeader: false }),
    ScopedTableHeader,
    HeadingIds,
    CardListItem,
    Section,
    StyledBlock,
    StyledClasses,
  ];
}
