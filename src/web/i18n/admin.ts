/** Admin texts, in both languages (the same keys). */
const en = {} as const;

const ru: Record<keyof typeof en, string> = {};

export const adminMessages = { en, ru };
