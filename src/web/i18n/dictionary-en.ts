import { cartEn } from './cart-en.ts';
import { checkoutEn } from './checkout-en.ts';
import { en } from './en.ts';

/**
 * Every shop text in English (the core texts and each area's), one module per language: a page
 * loads its own language's alone (texts.ts). The back office adds its own (admin-messages.ts).
 */
export const dictionary = { ...en, ...cartEn, ...checkoutEn };

export type MessageKey = keyof typeof dictionary;
