// @vitest-environment happy-dom
import { Editor } from '@tiptap/core';
import type { ComponentType } from 'react';
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { LOCALES, type Locale } from '../../contract/locale.ts';
import { STATIC_PAGES, type StaticPage } from '../../contract/pages.ts';
import { sanitizeDescription } from '../../server/catalog/sanitize.ts';
import { AboutText } from '../static-pages/about.tsx';
import { PaymentText } from '../static-pages/payment.tsx';
import { PrivacyPolicyText } from '../static-pages/privacy-policy.tsx';
import { ShippingText } from '../static-pages/shipping.tsx';
import { richTextExtensions } from './rich-text-schema.ts';

/**
 * Every information page the shop ships with, in both languages, goes through the back office's
 * editor as a manager's save does (issue 30, point 5): the admin page reads the built-in text's
 * HTML from its rendering (routes/admin/pages.tsx), the editor loads it, the manager adds one
 * space, the editor's HTML is sent and the server sanitizes it on save. What is stored must be the
 * page as the shop rendered it, but for that one space: every section, heading id, class the shop
 * styles, list, table and link.
 */

declare global {
  var IS_REACT_ACT_ENVIRONMENT: boolean;
}
globalThis.IS_REACT_ACT_ENVIRONMENT = true;

const BUILT_IN: Record<StaticPage, ComponentType<{ locale: Locale; email: string }>> = {
  shipping: ShippingText,
  payment: PaymentText,
  about: AboutText,
  'privacy-policy': PrivacyPolicyText,
};

const editors: Editor[] = [];
afterEach(() => {
  for (const editor of editors.splice(0)) editor.destroy();
});

/** The built-in text's HTML as the browser has it (the admin page reads `innerHTML` of its rendering). */
async function renderedText(page: StaticPage, locale: Locale): Promise<string> {
  const Text = BUILT_IN[page];
  const container = document.createElement('div');
  const root = createRoot(container);
  await act(async () =>
    root.render(
      <MemoryRouter>
        <Text locale={locale} email="shop@vitrina.example" />
      </MemoryRouter>,
    ),
  );
  const html = container.innerHTML;
  await act(async () => root.unmount());
  return html;
}

/** Loads `html` in the editor, types one space at the end of the first paragraph, saves as the server does. */
function savedWithOneSpace(html: string): string {
  const editor = new Editor({ extensions: richTextExtensions(), content: html });
  editors.push(editor);
  let end = -1;
  editor.state.doc.descendants((node, position) => {
    if (end === -1 && node.type.name === 'paragraph') end = position + node.nodeSize - 1;
    return end === -1;
  });
  editor.commands.insertContentAt(end, ' ');
  return sanitizeDescription(editor.getHTML());
}

/**
 * A page's markup written out the same way whatever wrote it: each element with its attributes in
 * name order, each text as it is. React Router's `data-discover` on its own links is no content.
 */
function canonical(html: string): string {
  const root = document.createElement('div');
  root.innerHTML = html;
  const write = (node: ChildNode): string => {
    if (node.nodeType === 3) return node.textContent ?? '';
    if (node.nodeType !== 1) return '';
    const element = node as Element;
    const tag = element.tagName.toLowerCase();
    const attributes = [...element.attributes]
      .filter((attribute) => attribute.name !== 'data-discover')
      .map((attribute) => ` ${attribute.name}="${attribute.value}"`)
      .sort()
      .join('');
    return `<${tag}${attributes}>${[...element.childNodes].map(write).join('')}</${tag}>`;
  };
  return [...root.childNodes].map(write).join('\n');
}

describe('the info-page editor keeps the page', () => {
  for (const page of STATIC_PAGES) {
    for (const locale of LOCALES) {
      it(`keeps the ${page} page (${locale}) through the editor with one added space`, async () => {
        const shown = await renderedText(page, locale);
        expect(shown).toContain('<p');
        const saved = savedWithOneSpace(shown);
        // The same page with that one space at the end of its first paragraph.
        const expected = canonical(shown).replace('</p>', ' </p>');
        expect(canonical(saved).split('\n')).toEqual(expected.split('\n'));
        // Opened and saved again without a change, it is the built-in page itself (a space at the
        // end of a paragraph is no content in HTML, and the editor lets it go when it loads).
        const again = new Editor({ extensions: richTextExtensions(), content: saved });
        editors.push(again);
        expect(canonical(sanitizeDescription(again.getHTML()))).toBe(canonical(shown));
      });
    }
  }
});
