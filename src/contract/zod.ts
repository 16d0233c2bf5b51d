import { z } from 'zod';

/**
 * zod as the contract uses it. In the browser zod must not compile its object parsers with
 * `new Function`: the shop's Content-Security-Policy refuses eval (ADR 0026), and zod's probe for
 * it, when the first object schema is made, would be reported as a violation. On the server it
 * keeps compiling them.
 */
if (typeof document !== 'undefined') z.config({ jitless: true });

export { z };
