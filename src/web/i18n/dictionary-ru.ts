import { cartRu } from './cart-ru.ts';
import { checkoutRu } from './checkout-ru.ts';
import type { MessageKey } from './dictionary-en.ts';
import { ru } from './ru.ts';

/** Every shop text in Russian: the same keys as dictionary-en.ts. */
export const dictionary: Record<MessageKey, string> = { ...ru, ...cartRu, ...checkoutRu };
