import type { Locale } from './locale.ts';

/**
 * Texts of the errors the server can answer, by key. Services and schemas use the keys; the HTTP
 * error handler and the pages translate them into the visitor's language. A message that is not a
 * key (a provider's own text, say) is shown as it is.
 */
const en = {
  'request-invalid': 'Please check the form.',
  'email-required': 'Enter your e-mail.',
  'email-invalid': 'Enter a valid e-mail address.',
  'email-taken': 'This e-mail is already registered. Sign in or restore the password.',
  'password-required': 'Enter your password.',
  'password-too-short': 'The password must be at least 8 characters long.',
  'password-too-long': 'The password is too long.',
  'password-confirmation-required': 'Repeat the password.',
  'password-confirmation-mismatch': 'The passwords do not match.',
  'privacy-policy-required': 'Please accept the personal data agreement.',
  'wrong-credentials': 'Wrong e-mail or password.',
  'email-not-confirmed': 'Confirm your e-mail first: follow the link in the message we sent you.',
  'link-incomplete': 'The link is incomplete. Open it from the e-mail again.',
  'token-invalid': 'The link is invalid, has expired or was already used. Request a new one.',
  'field-too-long': 'This is too long.',
  'field-required': 'This field is required.',
  'phone-invalid': 'Enter a phone number.',
  'country-invalid': 'Choose a country.',
  'too-many-requests': 'Too many attempts. Please wait a little and try again.',
  'sign-in-required': 'Sign in to continue.',
  'access-denied': 'Access denied: check you are signed in.',
  'not-found': 'Not found.',
  'origin-refused': 'This request came from another site and was refused.',
  'internal-server-error': 'Server error. Please contact support.',
  'product-required': 'Choose a product.',
  'product-unavailable': 'This product is not available.',
  'envisioned-not-orderable': 'This item is only envisioned: it cannot be ordered yet, but you can add it to your wishlist.',
  'out-of-stock': 'This product is out of stock.',
  'wishlist-unavailable': 'The wishlist is available to signed-in users. Sign in or register to keep one.',
  'rating-invalid': 'Choose a rating from 1 to 5.',
  'review-exists': 'You have already reviewed this product.',
  'delivery-method-unknown': 'Shipping method not recognized. Please contact support.',
  'delivery-not-available': 'This shipping method is not available for this address. Please choose another one.',
  'country-required': 'Choose a country.',
  'zip-required': 'Enter the postcode.',
  'zip-invalid': 'Check the postcode: in Russia it has six digits.',
  'zip-unknown': 'The carrier does not know this postcode. Please check it.',
  'delivery-provider-down': 'The shipping cost cannot be calculated right now. Please try again in a few minutes.',
  'basket-empty': 'Your cart is empty.',
  'basket-unavailable': 'Some cart items are unavailable: perhaps you ordered more than we have in stock.',
  'order-cannot-be-processed': 'Your order cannot be processed.',
  'payment-method-unknown': 'Payment provider not recognized. Please contact support.',
  'invalid-currency-rate': 'Invalid currency rate. Please contact support.',
  'cancel-invoice-fail': 'This order can no longer be cancelled. Please place a new order.',
  'link-invalid': 'Use lowercase Latin letters, digits and dashes.',
  'link-taken': 'This link is already used by another item.',
  'number-invalid': 'Enter a valid number.',
  'sale-not-below-price': 'The sale price must be below the price.',
  'file-invalid': 'Choose an uploaded image.',
  'date-invalid': 'Enter a valid date.',
  'status-invalid': 'Choose a status from 0 to 6.',
  'project-has-products': 'This project still has products: move or delete them first, or hide the project.',
  'product-ordered': 'This product is in orders and cannot be deleted; hide it instead.',
} as const;

export type ErrorKey = keyof typeof en;

const ru: Record<ErrorKey, string> = {
  'request-invalid': 'Проверьте форму.',
  'email-required': 'Введите e-mail.',
  'email-invalid': 'Введите правильный адрес e-mail.',
  'email-taken': 'Этот e-mail уже зарегистрирован. Войдите или восстановите пароль.',
  'password-required': 'Введите пароль.',
  'password-too-short': 'Пароль должен быть не короче 8 символов.',
  'password-too-long': 'Слишком длинный пароль.',
  'password-confirmation-required': 'Повторите пароль.',
  'password-confirmation-mismatch': 'Пароли не совпадают.',
  'privacy-policy-required': 'Примите соглашение об обработке персональных данных.',
  'wrong-credentials': 'Неверный e-mail или пароль.',
  'email-not-confirmed': 'Сначала подтвердите e-mail: перейдите по ссылке из нашего письма.',
  'link-incomplete': 'Ссылка неполная. Откройте её из письма ещё раз.',
  'token-invalid': 'Ссылка недействительна, устарела или уже использована. Запросите новую.',
  'field-too-long': 'Слишком длинно.',
  'field-required': 'Это поле обязательно.',
  'phone-invalid': 'Введите номер телефона.',
  'country-invalid': 'Выберите страну.',
  'too-many-requests': 'Слишком много попыток. Подождите немного и попробуйте снова.',
  'sign-in-required': 'Войдите, чтобы продолжить.',
  'access-denied': 'Доступ запрещён: проверьте, что вы вошли в аккаунт.',
  'not-found': 'Не найдено.',
  'origin-refused': 'Запрос пришёл с другого сайта и отклонён.',
  'internal-server-error': 'Ошибка сервера. Обратитесь в поддержку.',
  'product-required': 'Выберите товар.',
  'product-unavailable': 'Этот товар недоступен.',
  'envisioned-not-orderable': 'Этот товар пока только задуман: заказать его нельзя, но можно добавить в избранное.',
  'out-of-stock': 'Этого товара нет в наличии.',
  'wishlist-unavailable': 'Избранное доступно после входа. Войдите или зарегистрируйтесь, чтобы вести список.',
  'rating-invalid': 'Поставьте оценку от 1 до 5.',
  'review-exists': 'Вы уже оставили отзыв об этом товаре.',
  'delivery-method-unknown': 'Способ доставки не распознан. Обратитесь в поддержку.',
  'delivery-not-available': 'Этот способ доставки недоступен для этого адреса. Выберите другой.',
  'country-required': 'Выберите страну.',
  'zip-required': 'Введите почтовый индекс.',
  'zip-invalid': 'Проверьте индекс: в России он состоит из шести цифр.',
  'zip-unknown': 'Служба доставки не знает такого индекса. Проверьте его.',
  'delivery-provider-down': 'Сейчас не удаётся рассчитать стоимость доставки. Попробуйте через несколько минут.',
  'basket-empty': 'Корзина пуста.',
  'basket-unavailable': 'Некоторые товары в корзине недоступны: возможно, вы заказали больше, чем есть в наличии.',
  'order-cannot-be-processed': 'Ваш заказ не может быть обработан.',
  'payment-method-unknown': 'Способ оплаты не распознан. Обратитесь в поддержку.',
  'invalid-currency-rate': 'Неверный курс валюты. Обратитесь в поддержку.',
  'cancel-invoice-fail': 'Этот заказ уже нельзя отменить. Пожалуйста, оформите новый заказ.',
  'link-invalid': 'Используйте строчные латинские буквы, цифры и дефисы.',
  'link-taken': 'Эта ссылка уже занята другим элементом.',
  'number-invalid': 'Введите правильное число.',
  'sale-not-below-price': 'Цена со скидкой должна быть ниже цены.',
  'file-invalid': 'Выберите загруженное изображение.',
  'date-invalid': 'Введите правильную дату.',
  'status-invalid': 'Выберите статус от 0 до 6.',
  'project-has-products': 'В проекте ещё есть товары: перенесите или удалите их либо скройте проект.',
  'product-ordered': 'Этот товар есть в заказах, его нельзя удалить; скройте его.',
};

const catalogues: Record<Locale, Record<ErrorKey, string>> = { ru, en };

export const isErrorKey = (message: string): message is ErrorKey => Object.hasOwn(en, message);

export const translateError = (locale: Locale, message: string): string =>
  isErrorKey(message) ? catalogues[locale][message] : message;

export function translateErrors(locale: Locale, errors: Record<string, string[]>): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(errors).map(([field, messages]) => [field, messages.map((message) => translateError(locale, message))]),
  );
}
