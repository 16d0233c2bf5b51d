import { describe, expect, it } from 'vitest';
import { safeRedirect, signInPath } from './redirects.ts';

/** The status a refused target answers with, or the path it sends the visitor to. */
function outcome(target: string | null, fallback?: string): string | number {
  try {
    return safeRedirect(target, fallback);
  } catch (error) {
    if (error instanceof Response) return error.status;
    throw error;
  }
}

describe('safeRedirect', () => {
  it('keeps a path on the shop, with its query and hash, and a lone % of a search', () => {
    for (const target of ['/', '/cart', '/product/mug?reviews=2#reviews', '/search/100%25', '/search/100%']) {
      expect(outcome(target)).toBe(target);
    }
  });

  it('falls back for absolute, protocol-relative and backslash addresses', () => {
    for (const target of [
      'https://evil.example/x',
      'javascript:alert(1)',
      'evil.example',
      ' /cart',
      '//evil.example/x',
      '/\\evil.example',
      '\\\\evil.example',
      '/cart\\..\\\\evil.example',
    ]) {
      expect(outcome(target, '/profile'), target).toBe('/profile');
    }
    expect(outcome(null, '/profile')).toBe('/profile');
    expect(outcome('', '/profile')).toBe('/profile');
  });

  it('sees through encodings: %2F, %5C and double encoding are refused as what the browser makes of them', () => {
    for (const target of [
      '/%2Fevil.example',
      '/%5cevil.example',
      '/%5Cevil.example',
      '/%252F%252Fevil.example',
    ]) {
      expect(outcome(target), target).toBe('/');
    }
  });

  it('refuses control characters, raw or encoded, with 400', () => {
    for (const target of [
      '/\t/evil.example/x',
      '/a\r\nSet-Cookie: x=1',
      '/a\u0000',
      '/a\u007f',
      '/%09/evil.example/x',
      '/%0d%0aSet-Cookie:x=1',
      '/%2509/evil.example',
    ]) {
      expect(outcome(target), JSON.stringify(target)).toBe(400);
    }
  });
});

describe('signInPath', () => {
  it('carries the page the shopper is on, with its query, as a return address the sign-in accepts', () => {
    const path = signInPath('/search/mug', '?sort=asc');
    expect(path).toBe('/login?redirectTo=%2Fsearch%2Fmug%3Fsort%3Dasc');
    const target = new URLSearchParams(path.split('?')[1]).get('redirectTo');
    expect(safeRedirect(target)).toBe('/search/mug?sort=asc');
  });

  it('needs no return address from home, the account pages or the offline page', () => {
    for (const page of [
      '/',
      '/login',
      '/registration',
      '/restore',
      '/reset',
      '/activate',
      '/logout/',
      '/offline',
    ]) {
      expect(signInPath(page, '?x=1')).toBe('/login');
    }
  });
});
