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
    expect(
      sanitizeDescription('<p>A<img alt="Mug"></p><p>B<img src="//evil.example/a.png" alt="a"></p>'),
    ).toBe('<p>A</p><p>B</p>');
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

  it("keeps the info pages' own markup: named sections, the classes the shop styles, code", () => {
    expect(
      sanitizeDescription(
        '<section aria-labelledby="payment-methods" class="x" onclick="y"><h2 id="payment-methods">Methods</h2>' +
          '<ul class="payment-methods evil"><li class="payment-method" style="color:red"><h3 id="method-paypal">PayPal</h3>' +
          '<p>Dollars</p></li></ul></section><div class="table-scroll"><table aria-labelledby="bad id">' +
          '<tbody><tr><th scope="row"><code>locale</code></th></tr></tbody></table></div>' +
          '<p class="static-page__updated">Updated</p>',
      ),
    ).toBe(
      '<section aria-labelledby="payment-methods"><h2 id="payment-methods">Methods</h2>' +
        '<ul class="payment-methods"><li class="payment-method"><h3 id="method-paypal">PayPal</h3>' +
        '<p>Dollars</p></li></ul></section><div class="table-scroll"><table>' +
        '<tbody><tr><th scope="row"><code>locale</code></th></tr></tbody></table></div>' +
        '<p class="static-page__updated">Updated</p>',
    );
  });

  it('stores a lone paragraph of a list item or cell as its text, and no empty paragraph at the end', () => {
    expect(
      sanitizeDescription(
        '<ul><li><p>One</p></li><li><p>Two</p><ul><li><p>Nested</p></li></ul></li></ul><p></p>',
      ),
    ).toBe('<ul><li>One</li><li><p>Two</p><ul><li>Nested</li></ul></li></ul>');
  });

  it('opens a mail address in the mail program, not in a new tab', () => {
    expect(sanitizeDescription('<a href="mailto:shop@vitrina.example" target="_blank">Mail</a>')).toBe(
      '<a href="mailto:shop@vitrina.example">Mail</a>',
    );
  });
});
