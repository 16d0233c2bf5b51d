import type { Writable } from 'node:stream';
import { renderToPipeableStream } from 'react-dom/server';
import type { EntryContext } from 'react-router';
import { ServerRouter } from 'react-router';
import { STYLESHEET_ID } from './lib/stylesheet.ts';
import stylesheet from './styles.css?inline';

const RENDER_TIMEOUT_MS = 10_000;

const STYLESHEET_START = Buffer.from(`<style id="${STYLESHEET_ID}">`);
const STYLESHEET = Buffer.from(stylesheet);

const MODULE_PRELOAD = Buffer.from('<link rel="modulepreload"');
const LOW_PRIORITY = Buffer.from(' fetchPriority="low"');
const HEAD_END = Buffer.from('</head>');

/**
 * The page as sent, made in one copy of React's output:
 * - the stylesheet is written into the page's empty `<style>` element (see lib/stylesheet.ts). The
 *   first such tag is the layout's: it comes in the head, and text before it (title, meta and
 *   JSON-LD content) is escaped, so it cannot contain one;
 * - the head's script preloads (React Router's `<Scripts>`) are marked low priority: the page
 *   paints without them, and on a slow connection the first gallery image, the largest paint,
 *   should not share the bandwidth with them (ADR 0015).
 */
function finishedPage(page: Buffer<ArrayBuffer>): Buffer<ArrayBuffer> {
  const insertions: Array<{ at: number; bytes: Buffer<ArrayBuffer> }> = [];
  const headEnd = page.indexOf(HEAD_END);
  for (let at = page.indexOf(MODULE_PRELOAD); at >= 0 && at < headEnd; ) {
    at += MODULE_PRELOAD.length;
    insertions.push({ at, bytes: LOW_PRIORITY });
    at = page.indexOf(MODULE_PRELOAD, at);
  }
  const style = page.indexOf(STYLESHEET_START);
  if (style >= 0) insertions.push({ at: style + STYLESHEET_START.length, bytes: STYLESHEET });
  if (insertions.length === 0) return page;
  insertions.sort((x, y) => x.at - y.at);
  const parts: Buffer<ArrayBuffer>[] = [];
  let copied = 0;
  for (const { at, bytes } of insertions) {
    parts.push(page.subarray(copied, at), bytes);
    copied = at;
  }
  parts.push(page.subarray(copied));
  return Buffer.concat(parts);
}

/**
 * Where React writes a page: its chunks are kept in memory and joined once the page is complete.
 * React only calls `write`, `end`, `on` and `destroy` on its destination; a full Node stream here
 * would run every chunk through the stream machinery for nothing.
 */
class PageBuffer {
  private readonly chunks: Uint8Array[] = [];

  constructor(
    private readonly settle: { done(body: Buffer<ArrayBuffer>): void; failed(error: unknown): void },
  ) {}

  write(chunk: Uint8Array | string) {
    this.chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    return true;
  }

  end() {
    this.settle.done(Buffer.concat(this.chunks));
  }

  destroy(error?: unknown) {
    this.settle.failed(error);
  }

  on() {
    return this;
  }
}

/**
 * Renders the whole page before answering, as one buffer. The shop's pages await all their data
 * in loaders (nothing streams in later), so streaming would only cost many small writes through
 * three stream adapters; one buffer is cheaper and lets the server compress it in one go.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
) {
  return new Promise<Response>((resolve, reject) => {
    let status = responseStatusCode;
    const page = new PageBuffer({
      done(body) {
        responseHeaders.set('content-type', 'text/html; charset=utf-8');
        resolve(new Response(finishedPage(body), { status, headers: responseHeaders }));
      },
      failed: reject,
    });

    const { pipe, abort } = renderToPipeableStream(
      <ServerRouter context={routerContext} url={request.url} />,
      {
        onAllReady: () => pipe(page as unknown as Writable),
        onShellError: reject,
        onError(error: unknown) {
          status = 500;
          console.error(error);
        },
      },
    );
    setTimeout(abort, RENDER_TIMEOUT_MS + 1000).unref();
  });
}
