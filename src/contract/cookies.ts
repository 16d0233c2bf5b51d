/** Set when the visitor closed the test-mode overlay; the page cache keys on it. */
export const OVERLAY_COOKIE = 'overlay-test-info';
