import { PassThrough } from 'node:stream';
import { renderToPipeableStream } from 'react-dom/server';
import type { EntryContext } from 'react-router';
import { ServerRouter } from 'react-router';

const RENDER_TIMEOUT_MS = 10_000;

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
    const chunks: Buffer[] = [];
    const sink = new PassThrough();
    sink.on('data', (chunk: Buffer) => chunks.push(chunk));
    sink.on('end', () => {
      responseHeaders.set('content-type', 'text/html; charset=utf-8');
      resolve(new Response(Buffer.concat(chunks), { status, headers: responseHeaders }));
    });
    sink.on('error', reject);

    const { pipe, abort } = renderToPipeableStream(
      <ServerRouter context={routerContext} url={request.url} />,
      {
        onAllReady: () => pipe(sink),
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
