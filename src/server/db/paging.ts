/** Rows on a page of the back office's lists (products, reviews, feedback …). */
export const ADMIN_PAGE_SIZE = 20;

/**
 * The one paging rule of the back office's lists: pages are numbered from 1, and a page past the
 * end (`?page=999`, or a page emptied by a deletion) shows the last page, which the answer names
 * as `currentPage`. The count and the requested page are read at once; the rows are read again
 * only when the requested page turns out to be past the end.
 */
export async function pageOf<Row>(
  requested: { page: number; size: number },
  total: Promise<number>,
  rowsAt: (offset: number, limit: number) => Promise<Row[]>,
) {
  const { page, size } = requested;
  const [count, rows] = await Promise.all([total, rowsAt((page - 1) * size, size)]);
  const lastPage = Math.max(1, Math.ceil(count / size));
  const currentPage = Math.min(page, lastPage);
  return {
    rows: currentPage === page ? rows : await rowsAt((currentPage - 1) * size, size),
    total: count,
    currentPage,
    lastPage,
  };
}
