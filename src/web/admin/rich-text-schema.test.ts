// @vitest-environment happy-dom
import { Editor } from '@tiptap/core';
import { afterEach, describe, expect, it } from 'vitest';
import { sanitizeDescription } from '../../server/catalog/sanitize.ts';
import { richTextExtensions } from './rich-text-schema.ts';

/**
 * The editor must hold everything the sanitizer keeps: a sanitized text opened in the editor and
 * saved again (sanitized on write) keeps every element, attribute and word.
 */

const editors: Editor[] = [];
afterEach(() => {
  for (const editor of editors.splice(0)) editor.destroy();
});

/** Opens `html` in a headless editor with the back office's extensions and saves it as the server does. */
function throughEditor(html: string): string {
  const editor = new Editor({ extensions: richTextExtensions(), content: html });
  editors.push(editor);
  return sanitizeDescription(editor.getHTML());
}

/** Every element with its attributes, in document order; `<p>` the editor adds inside cells and items aside. */
function elementsOf(html: string): string[] {
  const root = document.createElement('div');
  root.innerHTML = html;
  return [...root.querySelectorAll('*')]
    .filter((element) => element.tagName !== 'P' || element.closest('li, td, th, blockquote') === null)
    .map((element) => {
      const attributes = [...element.attributes]
        .map((attribute) => `${attribute.name}=${attribute.value}`)
        .sort()
        .join(' ');
      return `${element.tagName.toLowerCase()}${attributes ? ` ${attributes}` : ''}`;
    });
}

/** The words of every text node (cells and paragraphs end a word). */
const wordsOf = (html: string) => {
  const root = document.createElement('div');
  root.innerHTML = html;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const words: string[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    words.push(...(node.textContent ?? '').split(/\s+/).filter(Boolean));
  }
  return words;
};

/** One of each thing the sanitizer keeps, with every attribute it keeps. */
const EVERYTHING =
  '<h2 id="sizes">Sizes</h2><h3>Fabric</h3><h4>Care</h4>' +
  '<p><strong>Heavy</strong> <em>cotton</em> <u>print</u><br />second line ' +
  '<a href="https://studio.example/game" title="Studio" rel="noopener noreferrer" target="_blank">studio</a> ' +
  '<a href="/shipping">shipping</a> <a href="#payment">payment</a> ' +
  '<a href="mailto:fans@studio.example" rel="noopener noreferrer" target="_blank">mail</a></p>' +
  '<p>Before <img src="/img/products/640/0123456789abcdef.webp" alt="Mug" title="Front" width="320" height="240" /> after</p>' +
  '<ul><li>One</li><li>Two<ul><li>Nested</li></ul></li></ul><ol><li>First</li></ol>' +
  '<blockquote><p>Quote</p></blockquote>' +
  '<table><tbody><tr><th scope="col">Size</th><th scope="col">Chest, cm</th></tr>' +
  '<tr><th scope="row">M</th><td>100</td></tr>' +
  '<tr><td colspan="2">Measured flat</td></tr><tr><td rowspan="2">L</td><td>106</td></tr><tr><td>107</td></tr></tbody></table>' +
  '<section aria-labelledby="sizes"><div class="static-page__intro"><p class="static-page__updated">Intro</p></div>' +
  '<ul class="payment-methods"><li class="payment-method"><h3 id="method-paypal">PayPal</h3><p>Pay <code>USD</code></p></li></ul>' +
  '<div class="table-scroll"><table aria-labelledby="sizes"><tbody><tr><td>1</td></tr></tbody></table></div></section>';

describe('the rich text editor holds everything the sanitizer keeps', () => {
  it('keeps every element, attribute and word of a sanitized text through the editor', () => {
    const stored = sanitizeDescription(EVERYTHING);
    const saved = throughEditor(stored);
    expect(elementsOf(saved)).toEqual(elementsOf(stored));
    expect(wordsOf(saved)).toEqual(wordsOf(stored));
    // And it stays the same however often it is opened and saved.
    expect(throughEditor(saved)).toBe(saved);
  });

  it('keeps every tag the sanitizer allows', () => {
    const tags = new Set(
      elementsOf(throughEditor(sanitizeDescription(EVERYTHING))).map((e) => e.split(' ')[0]),
    );
    for (const tag of ['h2', 'h3', 'h4', 'p', 'br', 'strong', 'em', 'u', 'a', 'img', 'ul', 'ol', 'li']) {
      expect(tags).toContain(tag);
    }
    for (const tag of ['blockquote', 'table', 'tbody', 'tr', 'th', 'td', 'section', 'div', 'code']) {
      expect(tags).toContain(tag);
    }
  });

  it('writes what other editors write in the form it keeps, word for word', () => {
    const pasted =
      '<b>Bold</b> <i>italic</i><table><caption>Hidden</caption><thead><tr><th>Size</th></tr></thead>' +
      '<tfoot><tr><td>Foot</td></tr></tfoot></table>';
    const stored = sanitizeDescription(pasted);
    expect(stored).toBe(
      '<strong>Bold</strong> <em>italic</em><table><tbody><tr><th>Size</th></tr></tbody><tbody><tr><td>Foot</td></tr></tbody></table>',
    );
    const saved = throughEditor(stored);
    expect(wordsOf(saved)).toEqual(['Bold', 'italic', 'Size', 'Foot']);
    expect(
      elementsOf(saved).filter((element) => element.startsWith('th') || element.startsWith('td')),
    ).toEqual(['th', 'td']);
  });

  it('does not turn a refused scheme into a link', () => {
    const saved = throughEditor('<p><a href="javascript:alert(1)">click</a></p>');
    expect(saved).toBe('<p>click</p>');
  });
});
