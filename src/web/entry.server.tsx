import { renderToString } from 'react-dom/server';
import type { EntryContext } from 'react-router';
import { ServerRouter } from 'react-router';
import { STYLESHEET_ID } from './lib/stylesheet.ts';
import stylesheet from './styles.css?inline';

const STYLESHEET_START = Buffer.from(`<style id="${STYLESHEET_ID}">`);
const STYLESHEET = Buffer.from(stylesheet);

const MODULE_PRELOAD = Buffer.from('<link rel="modulepreload"');
const LOW_PRIORITY = Buffer.from(' fetchPriority="low"');
const HEAD_END = Buffer.from('</head>');

/**
 * The page as sent, made in one copy of React's output:
 * - the stylesheet is written into the page's empty `<style>` element (see lib/stylesheet.ts). The
 *   first such tag is the layout's: it comes in the head, and text before it (the title and meta
 *   tags the page renders, which React moves there) is escaped, so it cannot contain one;
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

/** The handoff's last script, near the page's end: the browser has all the loader data once it runs. */
const HANDOFF_END = 'window.__reactRouterContext.streamController.close();';

/**
 * React Router sends the loader data the browser hydrates with as a stream, which its
 * `<StreamTransfer>` reads chunk by chunk, suspending the render until each arrives. Read here
 * into the cache `StreamTransfer` looks in first, chunk for chunk and decoded as it decodes them,
 * the data is all there when the page renders, and the page renders in one synchronous pass.
 */
async function readHandoff(context: EntryContext) {
  const { serverHandoffStream: stream, renderMeta } = context;
  if (!stream || !renderMeta) return false;
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  const cache: NonNullable<EntryContext['renderMeta']>['streamCache'] = {};
  for (let identifier = 0; ; identifier++) {
    const { done, value } = await reader.read();
    const result = { done, value: decoder.decode(value, { stream: true }) };
    cache[identifier] = Object.assign(Promise.resolve(), { result });
    if (done) break;
  }
  // `ServerRouter` takes a reader of its own; it reads nothing from it, the cache answers first.
  reader.releaseLock();
  renderMeta.streamCache = cache;
  return true;
}

/**
 * Renders the whole page into one buffer (ADR 0009, ADR 0017). Loaders await all their data and
 * the handoff is read beforehand, so nothing is left to wait for: React's synchronous string
 * renderer makes the page, which costs a fifth less than its streaming renderer writing the same
 * markup chunk by chunk into byte buffers.
 */
export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
) {
  const handoff = await readHandoff(routerContext);
  const page = renderToString(<ServerRouter context={routerContext} url={request.url} />);
  if (handoff && page.lastIndexOf(HANDOFF_END) < 0) {
    // React Router changed how it hands its data over: fail loudly rather than send a page that
    // never hydrates.
    throw new Error("entry.server: React Router's loader data did not render into the page");
  }
  responseHeaders.set('content-type', 'text/html; charset=utf-8');
  return new Response(finishedPage(Buffer.from(`<!DOCTYPE html>${page}`)), {
    status: responseStatusCode,
    headers: responseHeaders,
  });
}
