import { Extension, type Extensions } from '@tiptap/core';
import Image from '@tiptap/extension-image';
import { TableHeader, TableKit } from '@tiptap/extension-table';
import StarterKit from '@tiptap/starter-kit';
import { checkLink, HEADING_ID } from '../../contract/rich-text.ts';

/**
 * What the back office's rich text editor can hold: exactly what the shop's sanitizer keeps
 * (src/server/catalog/sanitize.ts), so opening a description, a size guide or a static page and
 * saving it again never drops anything (rich-text-schema.test.ts holds the two lists together).
 * No React here: the same extensions run headless in that test.
 */

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
      code: false,
      codeBlock: false,
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
  ];
}
