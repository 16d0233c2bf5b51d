import { request } from 'node:http';
import { fileURLToPath } from 'node:url';

/**
 * The JavaScript a page makes the browser download on a first visit: every script the
 * server-rendered HTML names (React Router's `modulepreload` links, `<script src>`, and the
 * `import` statements of its inline module scripts), each fetched from the shop as a browser would
 * ask for it, once with `accept-encoding: br` and once with `gzip`, counting the bytes sent as they
 * are sent. Chunks the page imports later (on a click, when a view opens) are not counted.
 */

export interface ScriptSize {
  /** The script's path on the shop (`/assets/…`). */
  path: string;
  /** Bytes uncompressed. */
  raw: number;
  /** Bytes sent to a browser that accepts brotli. */
  br: number;
  /** Bytes sent to a browser that accepts gzip only. */
  gzip: number;
}

export interface PageScripts {
  name: string;
  url: string;
  scripts: ScriptSize[];
  total: Omit<ScriptSize, 'path'>;
}

/** The budget of a product page's scripts, brotli as sent (issue 29): 100 kB (100,000 bytes). */
export const PRODUCT_SCRIPTS_BUDGET = 100_000;

/** The same-origin script paths a page's HTML names, in order of first mention. */
export function scriptPathsOf(html: string, pageUrl: string): string[] {
  const origin = new URL(pageUrl).origin;
  const found: string[] = [];
  const add = (reference: string) => {
    const url = new URL(reference.replaceAll('&amp;', '&'), pageUrl);
    if (url.origin === origin && !found.includes(url.pathname)) found.push(url.pathname);
  };
  for (const [tag] of html.matchAll(/<link\b[^>]*>/gi)) {
    if (!/\brel="modulepreload"/i.test(tag)) continue;
    const href = /\bhref="([^"]+)"/i.exec(tag)?.[1];
    if (href) add(href);
  }
  for (const [, attributes, body] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const src = /\bsrc="([^"]+)"/i.exec(attributes ?? '')?.[1];
    if (src) add(src);
    if (!/\btype="module"/i.test(attributes ?? '')) continue;
    for (const [, reference] of (body ?? '').matchAll(
      /\bimport\s*(?:[^"'()]*?\bfrom\s*)?["']([^"']+)["']/g,
    )) {
      if (reference) add(reference);
    }
  }
  return found;
}

/** The bytes the shop sends for `url` when asked with this `accept-encoding` (no decoding). */
function sentBytes(url: string, acceptEncoding: string, headers: Record<string, string>) {
  return new Promise<number>((resolve, reject) => {
    const outgoing = request(
      url,
      { headers: { ...headers, 'accept-encoding': acceptEncoding } },
      (response) => {
        if ((response.statusCode ?? 0) >= 300) {
          response.resume();
          reject(new Error(`${url} answered ${response.statusCode}`));
          return;
        }
        let bytes = 0;
        response.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
        });
        response.on('end', () => resolve(bytes));
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

export async function measurePageScripts(
  name: string,
  url: string,
  headers: Record<string, string> = {},
): Promise<PageScripts> {
  const response = await fetch(url, { headers });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  const paths = scriptPathsOf(await response.text(), url);
  const scripts: ScriptSize[] = [];
  for (const path of paths) {
    const scriptUrl = new URL(path, url).href;
    scripts.push({
      path,
      raw: await sentBytes(scriptUrl, 'identity', headers),
      br: await sentBytes(scriptUrl, 'br', headers),
      gzip: await sentBytes(scriptUrl, 'gzip', headers),
    });
  }
  const sum = (key: 'raw' | 'br' | 'gzip') => scripts.reduce((total, script) => total + script[key], 0);
  return { name, url, scripts, total: { raw: sum('raw'), br: sum('br'), gzip: sum('gzip') } };
}

const kilobytes = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

/** The table printed by the bench: one line per script, then the page's total. */
export function pageScriptLines(page: PageScripts): string[] {
  const width = Math.max(...page.scripts.map((script) => script.path.length), 'total'.length);
  const line = (label: string, sizes: Omit<ScriptSize, 'path'>) =>
    `${label.padEnd(width)}  ${kilobytes(sizes.br).padStart(9)}  ${kilobytes(sizes.gzip).padStart(9)}  ${kilobytes(sizes.raw).padStart(9)}`;
  return [
    `${'script'.padEnd(width)}  ${'br'.padStart(9)}  ${'gzip'.padStart(9)}  ${'plain'.padStart(9)}`,
    ...page.scripts.map((script) => line(script.path, script)),
    line('total', page.total),
  ];
}

export function productScriptsTargetLine(page: PageScripts): string {
  const pass = page.total.br <= PRODUCT_SCRIPTS_BUDGET;
  return `product page JS (compressed)     ${kilobytes(page.total.br)} br (${kilobytes(page.total.gzip)} gzip) ≤ ${kilobytes(PRODUCT_SCRIPTS_BUDGET)}  ${pass ? 'PASS' : 'FAIL'}`;
}

// `node --import tsx bench/page-scripts.ts <page URL>…`: the table for pages of a running shop.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const urls = process.argv.slice(2);
  if (urls.length === 0) {
    console.error('Usage: node --import tsx bench/page-scripts.ts <page URL>…');
    process.exit(1);
  }
  for (const url of urls) {
    const page = await measurePageScripts(url, url, { cookie: 'overlay-test-info=hidden; locale=en' });
    console.log(`\n${url}`);
    for (const line of pageScriptLines(page)) console.log(`  ${line}`);
  }
}
