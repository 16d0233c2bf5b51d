import type { Writable } from 'node:stream';
import { renderToPipeableStream } from 'react-dom/server';
import type { EntryContext } from 'react-router';
import { ServerRouter } from 'react-router';
import { STYLESHEET_ID } from './lib/stylesheet.ts';
import stylesheet from './styles.css?inline';

const RENDER_TIMEOUT_MS = 10_000;

const STYLESHEET_START = Buffer.from(`<style id="${STYLESHEET_ID}">`);
const STYLESHEET = Buffer.from(stylesheet);

/**
 * Writes the stylesheet into the page's empty `<style>` element (see lib/stylesheet.ts). The first
 * such tag is the layout's: it comes in the head, and text before it (title, meta and JSON-LD
 * content) is escaped, so it cannot contain one.
 */
function withStylesheet(page: Buffer<ArrayBuffer>): Buffer<ArrayBuffer> {
  const at = page.indexOf(STYLESHEET_START);
  if (at < 0) return page;
  const end = at + STYLESHEET_START.length;
  return Buffer.concat([page.subarray(0, end), STYLESHEET, page.subarray(end)]);
}

const MODULE_PRELOAD = Buffer.from('<link rel="modulepreload"');
const LOW_PRIORITY = Buffer.from(' fetchPriority="low"');
const HEAD_END = Buffer.from('</head>');

/**
 * Marks the head's script preloads (React Router's `<Scripts>`) low priority: the page paints
 * without them, and on a slow connection the first gallery image, the largest paint, should not
 * share the bandwidth with them (ADR 0015).
 */
function withLowPriorityScripts(page: Buffer<ArrayBuffer>): Buffer<ArrayBuffer> {
  const headEnd = page.indexOf(HEAD_END);
  const parts: Buffer<ArrayBuffer>[] = [];
  let copied = 0;
  for (
    let at = page.indexOf(MODULE_PRELOAD);
    at >= 0 && at < headEnd;
    at = page.indexOf(MODULE_PRELOAD, copied)
  ) {
    const end = at + MODULE_PRELOAD.length;
    parts.push(page.subarray(copied, end), LOW_PRIORITY);
    copied = end;
  }
  return copied === 0 ? page : Buffer.concat([...parts, page.subarray(copied)]);
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
        resolve(
          new Response(withStylesheet(withLowPriorityScripts(body)), { status, headers: responseHeaders }),
        );
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
