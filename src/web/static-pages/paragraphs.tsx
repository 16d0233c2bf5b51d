import type { ReactNode } from 'react';

/** Built-in prose as paragraphs. */
export const paragraphs = (texts: ReactNode[] = []) =>
  texts.map((text, index) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: fixed prose, never reordered
    <p key={index}>{text}</p>
  ));
