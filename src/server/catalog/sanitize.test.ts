import { describe, expect, it } from 'vitest';
import { sanitizeDescription } from './sanitize.ts';

describe('sanitizeDescription', () => {
  it('removes script elements together with their content', () => {
    const clean = sanitizeDescription('<p>Hoodie</p><script>alert(1)</script>');
    expect(clean).toBe('<p>Hoodie</p>');
  });

  it('removes event handlers and inline styles but keeps the element', () => {
    const clean = sanitizeDescription(
      '<img src="/img/a.webp" alt="Mug" onerror="alert(1)" style="width:9999px">',
    );
    expect(clean).toBe('<img src="/img/a.webp" alt="Mug" />');
  });

  it('drops javascript: and data: links and images', () => {
    expect(sanitizeDescription('<a href="javascript:alert(1)">click</a>')).not.toContain('javascript');
    expect(sanitizeDescription('<a href="JaVaScRiPt:alert(1)">click</a>')).not.toMatch(/javascript/i);
    expect(sanitizeDescription('<img src="data:image/svg+xml;base64,PHN2Zz4=" alt="x">')).not.toContain(
      'data:',
    );
  });

  it('drops pictures that cannot show, and gives one without a text alternative alt=""', () => {
    expect(sanitizeDescription('<p>Mug<img src="x"></p>')).toBe('<p>Mug</p>');
    expect(sanitizeDescription('<p><img alt="Mug"></p><p><img src="//evil.example/a.png" alt="a"></p>')).toBe(
      '<p></p><p></p>',
    );
    expect(sanitizeDescription('<img src="data:image/png;base64,AAAA" alt="x">')).toBe('');
    expect(sanitizeDescription('<img src="/img/products/a.webp">')).toBe(
      '<img src="/img/products/a.webp" alt="" />',
    );
    expect(sanitizeDescription('<img src="https://cdn.example/a.png" alt=" Mug ">')).toBe(
      '<img src="https://cdn.example/a.png" alt="Mug" />',
    );
  });

  it('opens links in a new tab without giving the target page access to the shop', () => {
    const clean = sanitizeDescription('<a href="https://studio.example/game">Studio</a>');
    expect(clean).toBe(
      '<a href="https://studio.example/game" rel="noopener noreferrer" target="_blank">Studio</a>',
    );
    expect(sanitizeDescription('<a href="mailto:fans@studio.example">Mail</a>')).toContain('href="mailto:');
  });

  it('keeps the formatting an admin uses in a description', () => {
    const html =
      '<h2>Details</h2><p><strong>Heavy</strong> <em>cotton</em><br />print</p><ul><li>One</li></ul>' +
      '<ol><li>Two</li></ol><blockquote>Quote</blockquote>' +
      '<table><tbody><tr><th scope="col">Size</th></tr><tr><td>M</td></tr></tbody></table>';
    expect(sanitizeDescription(html)).toBe(html);
  });

  it('opens same-site links in place and keeps a heading id a link can point at', () => {
    expect(sanitizeDescription('<a href="/shipping" target="_blank">Shipping</a>')).toBe(
      '<a href="/shipping">Shipping</a>',
    );
    expect(sanitizeDescription('<a href="//evil.example/x">x</a>')).not.toContain('evil');
    expect(sanitizeDescription('<h2 id="wishlist" class="x">Wishlist</h2>')).toBe(
      '<h2 id="wishlist">Wishlist</h2>',
    );
    expect(sanitizeDescription('<h3 id="__proto__">Bad id</h3>')).toBe('<h3>Bad id</h3>');
  });

  it('unwraps unknown tags but keeps their text', () => {
    expect(sanitizeDescription('<div><span class="x">Text</span></div>')).toBe('Text');
  });
});
