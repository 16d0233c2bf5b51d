import { describe, expect, it } from 'vitest';
import { checkLink } from './rich-text.ts';

describe('checkLink', () => {
  it('gives an address typed without a scheme https', () => {
    expect(checkLink(' studio.example/game ')).toEqual({ ok: true, href: 'https://studio.example/game' });
    expect(checkLink('example.com:8080/x')).toEqual({ ok: true, href: 'https://example.com:8080/x' });
  });

  it('keeps web, mail and same-site addresses as typed', () => {
    expect(checkLink('http://studio.example')).toEqual({ ok: true, href: 'http://studio.example' });
    expect(checkLink('mailto:fans@studio.example')).toEqual({ ok: true, href: 'mailto:fans@studio.example' });
    expect(checkLink('/shipping#payment')).toEqual({ ok: true, href: '/shipping#payment' });
    expect(checkLink('#wishlist')).toEqual({ ok: true, href: '#wishlist' });
  });

  it('refuses other schemes, naming the scheme, however they are disguised', () => {
    expect(checkLink('javascript:alert(1)')).toEqual({ ok: false, reason: 'scheme', scheme: 'javascript' });
    expect(checkLink('JaVa\tScRiPt:alert(1)')).toEqual({ ok: false, reason: 'scheme', scheme: 'javascript' });
    expect(checkLink('data:text/html,x')).toEqual({ ok: false, reason: 'scheme', scheme: 'data' });
  });

  it('refuses what is no address', () => {
    for (const typed of ['', '   ', 'shipping', 'two words.com', '//evil.example/x', 'https://']) {
      expect(checkLink(typed)).toEqual({ ok: false, reason: 'invalid' });
    }
  });
});
