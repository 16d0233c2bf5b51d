import { PassThrough, Transform, type TransformCallback } from 'node:stream';
import textScripts from 'virtual:vitrina/text-scripts';
import { createReadableStreamFromReadable } from '@react-router/node';
import { isbot } from 'isbot';
import { renderToPipeableStream } from 'react-dom/server';
import type { AppLoadContext, EntryContext, HandleErrorFunction } from 'react-router';
import { isRouteErrorResponse, ServerRouter } from 'react-router';
import { LOCALES, type Locale } from '../contract/locale.ts';
import { dictionaries } from './i18n/messages.ts';
import { provideTexts } from './i18n/texts.ts';
import { CspNonceContext } from './lib/csp-nonce.ts';

// The server renders pages in both languages: their texts are here from the start.
for (const locale of LOCALES) provideTexts(locale, dictionaries[locale]);

/** How long loaders' late data may stream before the render gives up (React Router's default). */
export const streamTimeout = 5_000;

const MODULE_PRELOAD = '<link rel="modulepreload"';
const HEAD_END = Buffer.from('</head>');

/**
 * The preload of the page's own language's texts (ADR 0086): the client entry imports them before
 * it hydrates, and without it the browser would only ask for them once the entry runs.
 */
const textPreloads = (locale: Locale, nonce: string) =>
  (textScripts[locale] ?? [])
    .map((href) => `<link rel="modulepreload" fetchPriority="low" href="${href}" nonce="${nonce}"/>`)
    .join('');

/**
 * The page's head as sent:
 * - the head's script preloads (React Router's `<Scripts>`) are marked low priority: the page
 *   paints without them, and on a slow connection the first gallery image, the largest paint,
 *   should not share the bandwidth with them (ADR 0015);
 * - the preloads of the page's language's texts follow them (ADR 0086).
 */
function finishedHead(head: string, texts: string): string {
  if (!head.includes(MODULE_PRELOAD)) return head;
  // A page without scripts (the offline page) needs no texts either.
  return head.replaceAll(MODULE_PRELOAD, `${MODULE_PRELOAD} fetchPriority="low"`) + texts;
}

/** Holds React's output back until the head is whole, finishes the head, then passes the rest on. */
class HeadFinisher extends Transform {
  private head: Buffer[] | undefined = [];

  /** `texts`: the preloads of the page's language's texts. */
  constructor(private readonly texts: string) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
    if (!this.head) return done(null, chunk);
    this.head.push(chunk);
    const sofar = Buffer.concat(this.head);
    const end = sofar.indexOf(HEAD_END);
    if (end < 0) return done();
    this.head = undefined;
    done(
      null,
      Buffer.concat([
        Buffer.from(finishedHead(sofar.toString('utf8', 0, end), this.texts)),
        sofar.subarray(end),
      ]),
    );
  }

  override _flush(done: TransformCallback) {
    done(null, this.head ? Buffer.concat(this.head) : undefined);
  }
}

/**
 * React Router's default server entry (streaming, `isbot`), with the response's CSP nonces on
 * React Router's scripts and React's own (ADR 0025, ADR 0026).
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const { cspNonce, log } = loadContext;
  // Crawlers get the whole page at once, browsers as soon as its shell is ready.
  const userAgent = request.headers.get('user-agent');
  const waitForAll = Boolean(userAgent && isbot(userAgent)) || routerContext.isSpaMode;
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    let status = responseStatusCode;
    const send = () => {
      shellRendered = true;
      const body = new PassThrough();
      responseHeaders.set('content-type', 'text/html; charset=utf-8');
      resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status }));
      pipe(new HeadFinisher(textPreloads(loadContext.locale, cspNonce.script))).pipe(body);
    };
    const { pipe, abort } = renderToPipeableStream(
      <CspNonceContext.Provider value={cspNonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={cspNonce.script} />
      </CspNonceContext.Provider>,
      {
        nonce: cspNonce.script,
        onShellReady() {
          if (!waitForAll) send();
        },
        onAllReady() {
          clearTimeout(timeout);
          if (waitForAll) send();
        },
        onShellError(error: unknown) {
          clearTimeout(timeout);
          reject(error);
        },
        onError(error: unknown) {
          status = 500;
          // An error before the shell is ready rejects the render, and React Router reports it.
          if (shellRendered) log.error({ err: error }, 'The page failed to render');
        },
      },
    );
    // Late data gets `streamTimeout` to arrive before the render is cut off.
    const timeout = setTimeout(abort, streamTimeout + 1000);
  });
}

/**
 * Loader, action and render errors, through the request's logger (its lines carry the request
 * id). Not an error response (a 404 thrown on purpose, an address no route matches): that is an
 * answer. Nor when the visitor has gone: the request was aborted, nothing failed.
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted || isRouteErrorResponse(error)) return;
  context.log.error({ err: error }, 'The page failed');
};
