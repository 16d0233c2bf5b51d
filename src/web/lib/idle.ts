/**
 * Runs `work` once the browser has nothing more urgent to do (ADR 0090): work a page does in the
 * browser that the shopper does not see at once (the recently viewed list, written to and read from
 * localStorage) runs after hydration's tasks instead of lengthening them. Within two seconds at the
 * latest; where the browser has no idle callbacks (Safari), in a task of its own. Answers a function
 * that cancels it (an effect's cleanup).
 */
export function whenIdle(work: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(work, { timeout: 2000 });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(work, 1);
  return () => clearTimeout(id);
}
