/** Plain text of an HTML fragment, shortened for a meta description. */
export function summarize(html: string, length = 160): string {
  const text = html
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length <= length ? text : `${text.slice(0, length - 1).trimEnd()}…`;
}
