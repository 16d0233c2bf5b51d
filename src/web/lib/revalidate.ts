import type { ShouldRevalidateFunctionArgs } from 'react-router';

/** List pages filter and sort in the browser: a changed query string needs no new data. */
export const revalidateOnNewPath = ({
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) =>
  formMethod && formMethod !== 'GET' ? defaultShouldRevalidate : currentUrl.pathname !== nextUrl.pathname;
