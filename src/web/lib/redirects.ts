/** Control characters: a browser drops a tab or line break in a URL, and CR/LF cannot be in a header. */
const CONTROL_CHARACTER = /\p{Cc}/u;
/** One `/`, not followed by another or by a backslash (which browsers read as `/`). */
const LOCAL_PATH = /^\/(?![/\\])/;
/** Decoding rounds before giving up: enough for a double-encoded `%252F`. */
const DECODING_ROUNDS = 3;

/**
 * Where to send the visitor after a form or sign-in when the address comes from the request
 * (`redirectTo` fields and parameters): `target` when it is a path on this shop, else `fallback`.
 *
 * A path on this shop starts with a single `/` and holds no backslash; decoded (up to three times,
 * so `/%2F…`, `/%5C…` and `/%09/…` are seen for what a browser makes of them) it still starts with
 * a single `/`. Absolute and protocol-relative addresses get the fallback. A target with control
 * characters, raw or encoded, is no address a browser sent by mistake: the request is refused
 * with 400.
 */
export function safeRedirect(target: FormDataEntryValue | null | undefined, fallback = '/'): string {
  if (typeof target !== 'string' || target === '') return fallback;
  const decoded = decodedFully(target);
  if (CONTROL_CHARACTER.test(target) || CONTROL_CHARACTER.test(decoded)) {
    throw new Response('The address to return to holds control characters', { status: 400 });
  }
  return LOCAL_PATH.test(target) && !target.includes('\\') && LOCAL_PATH.test(decoded) ? target : fallback;
}

function decodedFully(text: string): string {
  let decoded = text;
  for (let round = 0; round < DECODING_ROUNDS; round++) {
    let next: string;
    try {
      next = decodeURIComponent(decoded);
    } catch {
      // A lone `%` (a search for "100%") is text, not an encoding.
      return decoded;
    }
    if (next === decoded) return decoded;
    decoded = next;
  }
  return decoded;
}

/** Pages a shopper is not sent back to after signing in: the account pages, and the offline page. */
const NO_RETURN_PAGE = /^\/(login|registration|restore|reset|activate|logout|offline)(\/|$)/;

/**
 * The sign-in page's address from the page the shopper is on (`pathname` with its `search`), so
 * signing in returns there: `/login?redirectTo=/product/mug`. Home, the account pages and the
 * offline page need no return address.
 */
export function signInPath(pathname: string, search = ''): string {
  if (pathname === '/' || NO_RETURN_PAGE.test(pathname)) return '/login';
  return `/login?${new URLSearchParams({ redirectTo: `${pathname}${search}` })}`;
}
