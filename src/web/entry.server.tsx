import type { Writable } from 'node:stream';
import { renderToPipeableStream } from 'react-dom/server';
import type { EntryContext } from 'react-router';
import { ServerRouter } from 'react-router';

const RENDER_TIMEOUT_MS = 10_000;

/**
 * Where React writes a page: its chunks are kept in memory and joined once the page is complete.
 * React only calls `write`, `end`, `on` and `destroy` on its destination; a full Node stream here
 * would run every chunk through the stream machinery for nothing.
 */
class PageBuffer {
  private readonly chunks: Uint8Array[] = [];

  constructor(private readonly settle: { done(body: Buffer): void; failed(error: unknown): void }) {}

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
        resolve(new Response(body, { status, headers: responseHeaders }));
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
