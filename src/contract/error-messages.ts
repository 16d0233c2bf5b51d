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
  'password-required': 'Enter your password.',
  'password-too-short': 'The password must be at least 8 characters long.',
  'password-too-long': 'The password is too long.',
  'password-confirmation-required': 'Repeat the password.',
  'password-confirmation-mismatch': 'The passwords do not match.',
  'privacy-policy-required': 'Please accept the personal data agreement.',
  'wrong-credentials': 'Wrong e-mail or password.',
  'second-factor-required': 'Enter the code from your authenticator app, or a recovery code.',
  'second-factor-invalid': 'The code is wrong or has expired.',
  'two-factor-required': 'Turn on two-step sign-in to use the back office.',
  'two-factor-not-started': 'Start setting up two-step sign-in first.',
  'two-factor-already-on': 'Two-step sign-in is already on.',
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
  'service-unavailable': 'The shop is briefly unavailable. Please try again in a moment.',
  'product-required': 'Choose a product.',
  'product-unavailable': 'This product is not available.',
  'envisioned-not-orderable':
    'This item is only envisioned: it cannot be ordered yet, but you can add it to your wishlist.',
  'out-of-stock': 'This product is out of stock.',
  'product-not-released': 'This item is not on sale yet: its page shows when it goes on sale.',
  'product-already-released': 'This item is on sale already: no reminder is needed.',
  'limit-reached':
    'You have reached the limit of this item per customer (your cart and orders together): it cannot be added.',
  'account-blocked': 'This account is blocked. Please write to the shop if you think this is a mistake.',
  'customer-is-staff': 'This is a staff account, not a customer: it cannot be blocked here.',
  'admin-only': 'Only an administrator can do this.',
  'staff-already': 'This address already belongs to a staff member.',
  'staff-invitation-gone':
    'This invitation link no longer works: it was used, revoked or has expired. Ask an administrator for a new one.',
  'staff-invitation-other-address':
    'This invitation is for another address: sign in with the address it was sent to.',
  'staff-own-role': 'You cannot change your own role: ask another administrator.',
  'staff-last-admin': 'The shop needs at least one administrator: make someone else an administrator first.',
  'staff-role-invalid': 'Choose a role: manager or administrator.',
  'variant-required': 'Choose a size (or another option) first.',
  'variant-unavailable': 'This size or option of the product is not available.',
  'wishlist-unavailable': 'The wishlist is available to signed-in users. Sign in or register to keep one.',
  'rating-invalid': 'Choose a rating from 1 to 5.',
  'review-exists': 'You have already reviewed this product.',
  'delivery-method-unknown': 'Shipping method not recognized. Please contact support.',
  'delivery-method-off': 'The shop does not offer this shipping method. Please choose another one.',
  'delivery-not-available': 'This shipping method is not available for this address.',
  'country-required': 'Choose a country.',
  'zip-required': 'Enter the postcode.',
  'zip-invalid': 'Check the postcode: in Russia it has six digits.',
  'zip-unknown': 'The carrier does not know this postcode. Please check it.',
  'delivery-provider-down': 'The shipping cost is unavailable right now. Please try again shortly.',
  'promo-code-required': 'Enter a promo code.',
  'promo-unknown': 'There is no such promo code. Check how it is spelt.',
  'promo-not-started': 'This promo code is not valid yet.',
  'promo-expired': 'This promo code has expired.',
  'promo-paused': 'This promo code is paused by the shop.',
  'promo-used-up': 'This promo code has been used as many times as it may be.',
  'promo-customer-used-up': 'You have already used this promo code as many times as it allows.',
  'promo-min-order': 'The goods this promo code applies to do not reach its minimum order yet.',
  'promo-not-for-these-goods': 'This promo code does not apply to the goods in your cart.',
  'promo-not-for-drops': 'This promo code does not apply to drop items.',
  'promo-code-invalid': 'A code is letters, digits, "-" and "_" only.',
  'promo-code-taken': 'There is already a promo code with this name.',
  'promo-kind-invalid': 'Choose percent or amount.',
  'promo-percent-invalid': 'A percent is a whole number from 1 to 100.',
  'promo-window-invalid': 'The end must come after the start.',
  'promo-limit-below-uses': 'The limit cannot be below the uses already taken.',
  'basket-empty': 'Your cart is empty.',
  'basket-unavailable': 'Some cart items are unavailable: perhaps you ordered more than we have in stock.',
  'order-cannot-be-processed': 'Your order cannot be processed.',
  'payment-method-unknown': 'Payment provider not recognized. Please contact support.',
  'payment-method-off': 'The shop does not offer this payment method. Please choose another one.',
  'invalid-currency-rate': 'Invalid currency rate. Please contact support.',
  'paypal-needs-dollar-rate':
    'PayPal charges in US dollars and no current dollar rate is known: please choose another payment method.',
  'paypal-refused':
    'PayPal refused to take this order; nothing was charged. Please choose another payment method.',
  'paypal-unavailable': 'PayPal cannot be reached right now; nothing was charged. Please try again shortly.',
  'cancel-invoice-fail': 'This order can no longer be cancelled. Please place a new order.',
  'pickup-point-required': 'Choose a pickup point: its address goes here.',
  'pickup-point-invalid': 'This pickup point cannot be found. Please choose the point again.',
  'delivery-cost-required': 'The shipping cost is not known yet: go back to the shipping step.',
  'total-changed':
    'The total has changed since the page showed it. Check the new amounts and press Pay again.',
  'delivery-requote-failed': 'Your cart or address changed: choose the delivery again to get its new cost.',
  'order-status-move-refused': 'The order cannot move to this status from its current one.',
  'customs-data-missing':
    'This order goes abroad: fill in the customs data (HS code, origin, English description, net weight) of every item first.',
  'hs-code-invalid': 'An HS code has 6 to 10 digits.',
  'customs-description-invalid': 'Describe the goods in English (Latin letters).',
  'shipment-refused': 'The carrier refused the shipment; nothing was changed.',
  'shipment-carrier-down': 'The carrier cannot be reached; nothing was changed. Try again in a few minutes.',
  'shipment-carrier-unconfigured':
    'The shop has no account with this carrier yet (its credentials are not set): nothing was sent. See docs/production.md.',
  'shipment-refused-postcode':
    'The carrier does not accept the recipient’s postcode: correct the order’s address.',
  'shipment-refused-address':
    'The carrier needs the full address (region, town, street): complete the order’s address.',
  'shipment-refused-recipient-name':
    'The carrier refuses the recipient’s name (abroad it must be in Latin letters): correct it on the order.',
  'shipment-refused-phone':
    'The carrier needs the recipient’s phone number for this parcel: add it to the order.',
  'shipment-refused-weight':
    'The carrier refuses the parcel’s weight: check the products’ weights, or split the order into parcels.',
  'shipment-refused-declared-value':
    'The carrier refuses the declared value (above its limit?): split the order into parcels.',
  'shipment-refused-customs':
    'The carrier needs the customs declaration’s items: check the products’ customs data.',
  'shipment-refused-route':
    'The carrier does not deliver to this destination: choose another delivery method.',
  'shipment-refused-contract':
    'This kind of parcel is not switched on in the shop’s “Отправка” account: check RUSSIAN_POST_MAIL_TYPE and RUSSIAN_POST_MAIL_CATEGORY against the account’s settings.',
  'shipment-refused-post-office':
    'The carrier does not accept parcels at the shop’s post office: check RUSSIAN_POST_FROM_ZIP against the “Отправка” account.',
  'shipment-refused-no-courier':
    'Boxberry’s couriers do not serve the recipient’s postcode: offer the shopper a pickup point.',
  'shipment-refused-pickup-point':
    'Boxberry has no pickup point for the recipient’s postcode: check the postcode or send by courier.',
  'shipment-refused-carrier-text': 'The carrier’s answer, in its own words: {carrier_text}',
  'shipment-in-progress': 'This shipment is being created right now; reload the page in a moment.',
  'shipment-nothing-left': 'Choose items of the order that are not shipped yet.',
  'shipment-order-not-paid': 'Only a paid order waiting to be shipped can get a shipment.',
  'shipment-bulk-none': 'Tick the orders to ship.',
  'shipment-bulk-too-many': 'Ship at most 50 orders at once.',
  'refund-nothing-to-refund': 'Nothing is left to refund on this order.',
  'cancel-reason-required':
    'Say why the order is cancelled: the customer reads it in the cancellation e-mail.',
  'refund-cancel-reason-required':
    'This refund returns all that is left and cancels the order: say why (the customer reads it in the refund e-mail).',
  'refund-amount-too-large': 'The refund must be above zero and at most what is left of the payment.',
  'refund-restock-too-many': 'More units than the order has left to return to stock.',
  'refund-provider-refused': 'The payment provider refused the refund; nothing was changed.',
  'refund-robokassa-not-enough-funds':
    'Robokassa refused the refund: the payment holds less than that (NotEnoughOperationFunds). Nothing was changed.',
  'refund-robokassa-operation-not-found':
    'Robokassa does not know this payment (OperationNotFound). Nothing was changed.',
  'refund-robokassa-already-refunded':
    'Robokassa says this payment is already refunded (AlreadyRefunded). Nothing was changed.',
  'refund-robokassa-invalid-token':
    'Robokassa refused the refund request’s signature (InvalidToken): check ROBOKASSA_PASSWORD3. Nothing was changed.',
  'refund-provider-failed':
    'The payment provider could not be reached; nothing was refunded. Try again later.',
  'link-invalid': 'Use lowercase Latin letters, digits and dashes.',
  'url-invalid': 'Enter a full web address starting with https://.',
  'link-taken': 'This link is already used by another item.',
  'synonym-word-invalid': 'One word: letters and digits only.',
  'synonym-exists': 'This synonym is already there.',
  'number-invalid': 'Enter a valid number.',
  'rate-invalid': 'Enter roubles per dollar above zero, with at most four decimals.',
  'write-off-exceeds-stock': 'You cannot write off more units than are in stock.',
  'stock-moved':
    'The stock has changed since you saw it (an order, a refund or another manager): the current figure is shown. Check it and save again.',
  'sale-not-below-price': 'The sale price must be below the price.',
  'sku-invalid': 'A SKU uses letters, digits, dots, dashes, underscores and slashes only.',
  'sku-taken': 'This SKU is already used by another variant: SKUs must be unique across the shop.',
  'swatch-invalid': 'A swatch is a colour like #1a2b3c.',
  'option-kind-invalid': 'Choose what the option is: size, colour or other.',
  'option-values-required': 'An option needs at least one value.',
  'option-value-duplicate': 'This value appears twice in the option.',
  'variants-required': 'A product needs at least one variant.',
  'variants-without-options': 'A product without options has exactly one variant.',
  'variant-options-invalid': "The variant must name one of each option's values.",
  'variant-duplicate': 'Two variants have the same combination of values.',
  'variant-ordered':
    'A variant you removed is held by orders that are not finished yet (its units may still go back to stock); set its stock to 0 instead.',
  'sale-needs-price': 'A variant has its own sale price only with its own price.',
  'variant-in-stock': 'This size is in stock: you can order it now.',
  'file-invalid': 'Choose an uploaded image.',
  'file-missing': 'There is no such picture. Upload it or choose it in the file manager.',
  'date-invalid': 'Enter a valid date.',
  'release-time-required': 'Choose when the drop goes on sale.',
  'hold-minutes-invalid':
    'The hold is a whole number of minutes from 1 to 1440 (24 hours), or empty for the shop default.',
  'limit-invalid': 'A limit is a whole number of units, at least 1, or empty for no limit.',
  'product-in-another-drop':
    'A product you added is already in another upcoming drop: take it out of that drop first.',
  'status-invalid': 'Choose a status from 0 to 6.',
  'project-has-products': 'This project still has products: move or delete them first, or hide the project.',
  'category-has-products':
    'Products still in this category: {products}. Move them to another category first (or hide the category).',
  'category-move-same': 'Choose another category to move the products to.',
  'category-move-unknown': 'The category to move the products to no longer exists.',
  'date-range-invalid': 'The start of the period must come before its end.',
  'time-zone-invalid': 'Unknown time zone.',
  'csv-encoding-kept':
    'Windows-1251 cannot hold some characters of this field; the existing text is kept. Save the file as “CSV UTF-8” to edit it.',
  'csv-encoding-change-kept':
    'Windows-1251 cannot hold some characters of this field, so the change in it is not applied; the existing text is kept. Save the file as “CSV UTF-8” to edit it.',
  'product-ordered': 'This product is in orders and cannot be deleted; hide it instead.',
  'bulk-refused': 'Nothing was changed: some of the chosen products cannot take this change.',
  'bulk-action-invalid': 'Choose what to do with the chosen products.',
  'bulk-price-too-high': 'The new price would be above 10,000,000 roubles.',
  'bulk-sale-not-below-price':
    'Rounded to whole roubles, the sale price would not be below the price; change this product in its own form.',
  'products-required': 'Choose at least one product.',
  'too-many-products': 'Too many products at once: choose 200 or fewer.',
  'percent-invalid': 'Enter a whole percent from −90 to 1000, not 0.',
  'path-invalid':
    'Folder names use lowercase letters (Russian or Latin), digits, dashes and underscores, up to 40 characters, at most 5 levels deep.',
  'folder-exists': 'A folder with this name already exists.',
  'file-exists': 'That folder already has a file with this name or this picture: nothing is overwritten.',
  'file-name-invalid': 'A file name cannot contain slashes or control characters.',
  'folder-into-itself': 'A folder cannot be moved into itself or into one of its folders.',
  'folder-not-empty': 'The folder is not empty: delete its files and folders first.',
  'file-required': 'Choose a file to upload.',
  'file-too-large': 'The file is too large: at most 10 MB.',
  'image-empty': 'The file is empty: choose a picture.',
  'image-not-a-picture': 'This file is not a picture. Upload a JPEG, PNG, WebP, GIF or AVIF file.',
  'image-format-unsupported': 'This picture format is not taken: upload a JPEG, PNG, WebP, GIF or AVIF file.',
  'image-too-many-pixels':
    'The picture has too many pixels: at most 50 megapixels (for example 7000 × 7000). Make it smaller and upload it again.',
  'image-unreadable':
    'The picture could not be read: it may be damaged. Save it again and upload the new file.',
  'csv-invalid': 'The CSV file could not be read.',
  'csv-rows-invalid': 'Some rows of the CSV file have errors; nothing was changed.',
  'csv-column-missing': 'A required column is missing.',
  'csv-column-unknown': 'Unknown column.',
  'csv-column-duplicate': 'This column appears twice.',
  'csv-binary':
    'This is not a CSV text file (a workbook, a picture or an archive?). In the spreadsheet choose “Save as” → “CSV”, then pick that file.',
  'csv-quote-not-closed': 'A quote opened in this row is never closed.',
  'csv-quote-invalid':
    'A quote inside a cell: put the whole cell in quotes and double every quote inside it.',
  'body-too-large': 'Too much data at once: the file or the form is larger than this accepts.',
  'body-length-required': 'The request does not say its length (Content-Length).',
  'body-too-deep': 'The data sent is nested too deeply.',
  'media-type-unsupported': 'This kind of data is not accepted here.',
  'csv-link-duplicate':
    'This link appears in more than one row: a product’s further rows are its variants, with the product columns left blank.',
  'csv-stock-moved':
    'The stock has changed since the file was exported (an order, a refund or another manager); it is now the figure in brackets. Count again, or export the file again.',
  'csv-stock-seen-required':
    'A new stock for a product already in the shop needs the figure it was counted over, in the quantity_seen column (an export has it); the stock now is the figure in brackets. Export the file again, or enter receipts and write-offs on the product’s page.',
  'csv-variant-unknown':
    'No variant of this product has this SKU: add sizes and colours in the product’s variant table first.',
  'project-unknown': 'No project has this link.',
  'category-unknown': 'No category has this link.',
  'boolean-invalid': 'Use 1 or 0.',
  'price-required': 'A product shown in the shop and available to order needs a price above 0.',
  'version-required': 'Reload the page: the form does not say which version of the record it edits.',
  'record-changed':
    'Someone else changed this while you were editing. Reload to see their changes; your input stays here until you do.',
  'shipped-mail-not-ready': 'The shipped mail goes only to a shipped order with a track code.',
} as const;

export type ErrorKey = keyof typeof en;

const ru: Record<ErrorKey, string> = {
  'request-invalid': 'Проверьте форму.',
  'email-required': 'Введите e-mail.',
  'email-invalid': 'Введите правильный адрес e-mail.',
  'password-required': 'Введите пароль.',
  'password-too-short': 'Пароль должен быть не короче 8 символов.',
  'password-too-long': 'Слишком длинный пароль.',
  'password-confirmation-required': 'Повторите пароль.',
  'password-confirmation-mismatch': 'Пароли не совпадают.',
  'privacy-policy-required': 'Примите соглашение об обработке персональных данных.',
  'wrong-credentials': 'Неверный e-mail или пароль.',
  'second-factor-required': 'Введите код из приложения-аутентификатора или код восстановления.',
  'second-factor-invalid': 'Код неверный или устарел.',
  'two-factor-required': 'Включите двухэтапный вход, чтобы работать в админке.',
  'two-factor-not-started': 'Сначала начните настройку двухэтапного входа.',
  'two-factor-already-on': 'Двухэтапный вход уже включён.',
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
  'service-unavailable': 'Магазин ненадолго недоступен. Попробуйте через минуту.',
  'product-required': 'Выберите товар.',
  'product-unavailable': 'Этот товар недоступен.',
  'envisioned-not-orderable':
    'Этот товар пока только задуман: заказать его нельзя, но можно добавить в избранное.',
  'out-of-stock': 'Этого товара нет в наличии.',
  'product-not-released': 'Этот товар ещё не в продаже: время начала продаж указано на его странице.',
  'product-already-released': 'Этот товар уже в продаже: напоминание не нужно.',
  'limit-reached':
    'Вы достигли лимита этого товара на одного покупателя (в корзине и заказах вместе): добавить его нельзя.',
  'account-blocked': 'Эта учётная запись заблокирована. Если это ошибка, напишите магазину.',
  'customer-is-staff': 'Это учётная запись сотрудника, а не покупателя: заблокировать её здесь нельзя.',
  'admin-only': 'Это может сделать только администратор.',
  'staff-already': 'Этот адрес уже принадлежит сотруднику.',
  'staff-invitation-gone':
    'Ссылка приглашения больше не действует: её уже использовали, отозвали или срок истёк. Попросите администратора прислать новую.',
  'staff-invitation-other-address':
    'Это приглашение для другого адреса: войдите с адресом, на который оно пришло.',
  'staff-own-role': 'Свою роль изменить нельзя: попросите другого администратора.',
  'staff-last-admin': 'В магазине должен остаться хотя бы один администратор: сначала назначьте другого.',
  'staff-role-invalid': 'Выберите роль: менеджер или администратор.',
  'variant-required': 'Сначала выберите размер (или другой вариант).',
  'variant-unavailable': 'Такого размера или варианта этого товара нет.',
  'wishlist-unavailable':
    'Избранное доступно после входа. Войдите или зарегистрируйтесь, чтобы вести список.',
  'rating-invalid': 'Поставьте оценку от 1 до 5.',
  'review-exists': 'Вы уже оставили отзыв об этом товаре.',
  'delivery-method-unknown': 'Способ доставки не распознан. Обратитесь в поддержку.',
  'delivery-method-off': 'Магазин не предлагает этот способ доставки. Выберите другой.',
  'delivery-not-available': 'Этот способ доставки недоступен для этого адреса.',
  'country-required': 'Выберите страну.',
  'zip-required': 'Введите почтовый индекс.',
  'zip-invalid': 'Проверьте индекс: в России он состоит из шести цифр.',
  'zip-unknown': 'Служба доставки не знает такого индекса. Проверьте его.',
  'delivery-provider-down': 'Сейчас не удаётся рассчитать доставку. Попробуйте через несколько минут.',
  'promo-code-required': 'Введите промокод.',
  'promo-unknown': 'Такого промокода нет. Проверьте, как он написан.',
  'promo-not-started': 'Этот промокод ещё не действует.',
  'promo-expired': 'Срок действия промокода истёк.',
  'promo-paused': 'Магазин приостановил этот промокод.',
  'promo-used-up': 'Промокод уже использован максимальное число раз.',
  'promo-customer-used-up': 'Вы уже использовали этот промокод столько раз, сколько он позволяет.',
  'promo-min-order': 'Товары, к которым относится промокод, пока не набирают его минимальную сумму заказа.',
  'promo-not-for-these-goods': 'Промокод не действует на товары в вашей корзине.',
  'promo-not-for-drops': 'Промокод не действует на товары дропов.',
  'promo-code-invalid': 'В коде могут быть только буквы, цифры, «-» и «_».',
  'promo-code-taken': 'Промокод с таким названием уже есть.',
  'promo-kind-invalid': 'Выберите процент или сумму.',
  'promo-percent-invalid': 'Процент — целое число от 1 до 100.',
  'promo-window-invalid': 'Окончание должно быть позже начала.',
  'promo-limit-below-uses': 'Лимит не может быть меньше уже сделанных использований.',
  'basket-empty': 'Корзина пуста.',
  'basket-unavailable':
    'Некоторые товары в корзине недоступны: возможно, вы заказали больше, чем есть в наличии.',
  'order-cannot-be-processed': 'Ваш заказ не может быть обработан.',
  'payment-method-unknown': 'Способ оплаты не распознан. Обратитесь в поддержку.',
  'payment-method-off': 'Магазин не принимает этот способ оплаты. Выберите другой.',
  'invalid-currency-rate': 'Неверный курс валюты. Обратитесь в поддержку.',
  'paypal-needs-dollar-rate':
    'PayPal списывает доллары США, а актуальный курс доллара неизвестен: выберите другой способ оплаты.',
  'paypal-refused': 'PayPal отказался принять этот заказ; деньги не списаны. Выберите другой способ оплаты.',
  'paypal-unavailable': 'PayPal сейчас недоступен; деньги не списаны. Попробуйте через несколько минут.',
  'cancel-invoice-fail': 'Этот заказ уже нельзя отменить. Пожалуйста, оформите новый заказ.',
  'pickup-point-required': 'Выберите пункт выдачи: сюда подставится его адрес.',
  'pickup-point-invalid': 'Такой пункт выдачи не найден. Выберите пункт ещё раз.',
  'delivery-cost-required': 'Стоимость доставки ещё не известна: вернитесь к шагу доставки.',
  'total-changed':
    'Сумма изменилась с тех пор, как страница её показала. Проверьте новые суммы и нажмите «Оплатить» ещё раз.',
  'delivery-requote-failed':
    'Корзина или адрес изменились: выберите доставку ещё раз, чтобы узнать её новую стоимость.',
  'order-status-move-refused': 'Из текущего статуса заказ нельзя перевести в этот.',
  'customs-data-missing':
    'Заказ едет за границу: сначала заполните таможенные данные (код ТН ВЭД, страну происхождения, описание на английском, вес нетто) каждого товара.',
  'hs-code-invalid': 'Код ТН ВЭД — от 6 до 10 цифр.',
  'customs-description-invalid': 'Опишите товар по-английски (латинскими буквами).',
  'shipment-refused': 'Перевозчик отказал в создании отправления; ничего не изменилось.',
  'shipment-carrier-down': 'Перевозчик недоступен; ничего не изменилось. Попробуйте через несколько минут.',
  'shipment-carrier-unconfigured':
    'У магазина ещё нет договора с этим перевозчиком (не заданы его ключи): ничего не отправлено. См. docs/production.md.',
  'shipment-refused-postcode': 'Перевозчик не принимает индекс получателя: исправьте адрес в заказе.',
  'shipment-refused-address':
    'Перевозчику нужен полный адрес (регион, город, улица): дополните адрес в заказе.',
  'shipment-refused-recipient-name':
    'Перевозчик не принимает имя получателя (за границу — только латиницей): исправьте его в заказе.',
  'shipment-refused-phone':
    'Для этого отправления перевозчику нужен телефон получателя: добавьте его в заказ.',
  'shipment-refused-weight':
    'Перевозчик не принимает вес посылки: проверьте вес товаров или разделите заказ на несколько посылок.',
  'shipment-refused-declared-value':
    'Перевозчик не принимает объявленную ценность (больше предела?): разделите заказ на несколько посылок.',
  'shipment-refused-customs':
    'Перевозчику нужны вложения таможенной декларации: проверьте таможенные данные товаров.',
  'shipment-refused-route': 'Перевозчик не доставляет по этому направлению: выберите другой способ доставки.',
  'shipment-refused-contract':
    'Этот вид отправлений не подключён в кабинете «Отправки»: сверьте RUSSIAN_POST_MAIL_TYPE и RUSSIAN_POST_MAIL_CATEGORY с настройками кабинета.',
  'shipment-refused-post-office':
    'Перевозчик не принимает посылки в отделении магазина: сверьте RUSSIAN_POST_FROM_ZIP с кабинетом «Отправки».',
  'shipment-refused-no-courier':
    'Курьеры Boxberry не обслуживают индекс получателя: предложите покупателю пункт выдачи.',
  'shipment-refused-pickup-point':
    'У Boxberry нет пункта выдачи для индекса получателя: проверьте индекс или отправьте курьером.',
  'shipment-refused-carrier-text': 'Ответ перевозчика дословно: {carrier_text}',
  'shipment-in-progress': 'Это отправление создаётся прямо сейчас; обновите страницу через минуту.',
  'shipment-nothing-left': 'Выберите товары заказа, которые ещё не отправлены.',
  'shipment-order-not-paid': 'Отправление создаётся только для оплаченного заказа, который ждёт отправки.',
  'shipment-bulk-none': 'Отметьте заказы, которые нужно отправить.',
  'shipment-bulk-too-many': 'За один раз можно отправить не больше 50 заказов.',
  'refund-nothing-to-refund': 'По этому заказу возвращать больше нечего.',
  'cancel-reason-required': 'Укажите причину отмены: покупатель прочтёт её в письме об отмене.',
  'refund-cancel-reason-required':
    'Этот возврат отдаёт весь остаток и отменяет заказ: укажите причину (покупатель прочтёт её в письме о возврате).',
  'refund-amount-too-large': 'Сумма возврата должна быть больше нуля и не больше остатка оплаты.',
  'refund-restock-too-many': 'Столько единиц этого товара вернуть на склад нельзя.',
  'refund-provider-refused': 'Платёжная система отказала в возврате; ничего не изменилось.',
  'refund-robokassa-not-enough-funds':
    'Robokassa отказала в возврате: по платежу осталось меньше этой суммы (NotEnoughOperationFunds). Ничего не изменилось.',
  'refund-robokassa-operation-not-found':
    'Robokassa не знает этот платёж (OperationNotFound). Ничего не изменилось.',
  'refund-robokassa-already-refunded':
    'Robokassa сообщает, что платёж уже возвращён (AlreadyRefunded). Ничего не изменилось.',
  'refund-robokassa-invalid-token':
    'Robokassa не приняла подпись запроса возврата (InvalidToken): проверьте ROBOKASSA_PASSWORD3. Ничего не изменилось.',
  'refund-provider-failed': 'Платёжная система не отвечает; деньги не возвращены. Попробуйте позже.',
  'link-invalid': 'Используйте строчные латинские буквы, цифры и дефисы.',
  'url-invalid': 'Введите полный адрес сайта, начиная с https://.',
  'link-taken': 'Эта ссылка уже занята другим элементом.',
  'synonym-word-invalid': 'Одно слово: только буквы и цифры.',
  'synonym-exists': 'Такой синоним уже есть.',
  'number-invalid': 'Введите правильное число.',
  'rate-invalid': 'Введите число рублей за доллар больше нуля, не более четырёх знаков после запятой.',
  'write-off-exceeds-stock': 'Нельзя списать больше, чем есть на складе.',
  'stock-moved':
    'Остаток изменился с тех пор, как вы его видели (заказ, возврат или другой менеджер): показано текущее число. Проверьте и сохраните снова.',
  'sale-not-below-price': 'Цена со скидкой должна быть ниже цены.',
  'sku-invalid': 'Артикул — это буквы, цифры, точки, дефисы, подчёркивания и косые черты.',
  'sku-taken': 'Этот артикул уже есть у другого варианта: артикулы в магазине не повторяются.',
  'swatch-invalid': 'Образец цвета записывается как #1a2b3c.',
  'option-kind-invalid': 'Выберите вид параметра: размер, цвет или другое.',
  'option-values-required': 'У параметра должно быть хотя бы одно значение.',
  'option-value-duplicate': 'Это значение повторяется в параметре.',
  'variants-required': 'У товара должен быть хотя бы один вариант.',
  'variants-without-options': 'У товара без параметров ровно один вариант.',
  'variant-options-invalid': 'Вариант должен называть по одному значению каждого параметра.',
  'variant-duplicate': 'У двух вариантов одинаковое сочетание значений.',
  'variant-ordered':
    'Удалённый вами вариант есть в незавершённых заказах (его единицы ещё могут вернуться на склад); поставьте ему остаток 0.',
  'sale-needs-price': 'Своя цена со скидкой бывает только у варианта со своей ценой.',
  'variant-in-stock': 'Этот размер есть в наличии: его можно заказать сейчас.',
  'file-invalid': 'Выберите загруженное изображение.',
  'file-missing': 'Такой картинки нет. Загрузите её или выберите в файловом менеджере.',
  'date-invalid': 'Введите правильную дату.',
  'release-time-required': 'Укажите, когда начинаются продажи дропа.',
  'hold-minutes-invalid':
    'Время брони — целое число минут от 1 до 1440 (24 часа) или пусто для значения магазина.',
  'limit-invalid': 'Лимит — целое число штук, не меньше 1, или пусто, если лимита нет.',
  'product-in-another-drop':
    'Добавленный товар уже входит в другой предстоящий дроп: сначала уберите его оттуда.',
  'status-invalid': 'Выберите статус от 0 до 6.',
  'project-has-products': 'В проекте ещё есть товары: перенесите или удалите их либо скройте проект.',
  'category-has-products':
    'В категории ещё есть товары: {products}. Сначала перенесите их в другую категорию (или скройте категорию).',
  'category-move-same': 'Выберите другую категорию, куда перенести товары.',
  'category-move-unknown': 'Категории, куда переносятся товары, больше нет.',
  'date-range-invalid': 'Начало периода должно быть раньше его конца.',
  'time-zone-invalid': 'Неизвестный часовой пояс.',
  'csv-encoding-kept':
    'В кодировке Windows-1251 нет некоторых символов этого поля; оставлен прежний текст. Чтобы изменить его, сохраните файл как «CSV UTF-8».',
  'csv-encoding-change-kept':
    'В кодировке Windows-1251 нет некоторых символов этого поля, поэтому изменение в нём не применено; оставлен прежний текст. Чтобы изменить его, сохраните файл как «CSV UTF-8».',
  'product-ordered': 'Этот товар есть в заказах, его нельзя удалить; скройте его.',
  'bulk-refused': 'Ничего не изменено: часть выбранных товаров нельзя так изменить.',
  'bulk-action-invalid': 'Выберите, что сделать с выбранными товарами.',
  'bulk-price-too-high': 'Новая цена была бы выше 10 000 000 рублей.',
  'bulk-sale-not-below-price':
    'После округления до целых рублей цена со скидкой не была бы ниже обычной; измените этот товар в его форме.',
  'products-required': 'Выберите хотя бы один товар.',
  'too-many-products': 'Слишком много товаров сразу: выберите не больше 200.',
  'percent-invalid': 'Введите целый процент от −90 до 1000, кроме 0.',
  'path-invalid':
    'Имена папок: строчные русские или латинские буквы, цифры, дефисы и подчёркивания, до 40 символов, не больше 5 уровней.',
  'folder-exists': 'Папка с таким именем уже есть.',
  'file-exists':
    'В этой папке уже есть файл с таким именем или такая же картинка: ничего не перезаписывается.',
  'file-name-invalid': 'В имени файла не может быть косых черт и управляющих символов.',
  'folder-into-itself': 'Папку нельзя переместить в неё саму или в одну из её папок.',
  'folder-not-empty': 'Папка не пуста: сначала удалите её файлы и папки.',
  'file-required': 'Выберите файл для загрузки.',
  'file-too-large': 'Файл слишком большой: не больше 10 МБ.',
  'image-empty': 'Файл пуст: выберите картинку.',
  'image-not-a-picture': 'Этот файл не картинка. Загрузите файл JPEG, PNG, WebP, GIF или AVIF.',
  'image-format-unsupported':
    'Такой формат картинок не принимается: загрузите JPEG, PNG, WebP, GIF или AVIF.',
  'image-too-many-pixels':
    'В картинке слишком много пикселей: не больше 50 мегапикселей (например, 7000 × 7000). Уменьшите её и загрузите снова.',
  'image-unreadable':
    'Картинку не удалось прочитать: возможно, файл повреждён. Сохраните её заново и загрузите новый файл.',
  'csv-invalid': 'Не удалось прочитать CSV-файл.',
  'csv-rows-invalid': 'В некоторых строках CSV-файла ошибки; ничего не изменено.',
  'csv-column-missing': 'Не хватает обязательного столбца.',
  'csv-column-unknown': 'Неизвестный столбец.',
  'csv-column-duplicate': 'Этот столбец встречается дважды.',
  'csv-binary':
    'Это не текстовый CSV-файл (книга Excel, картинка или архив?). В таблице выберите «Сохранить как» → «CSV» и загрузите этот файл.',
  'csv-quote-not-closed': 'Открытая в этой строке кавычка нигде не закрыта.',
  'csv-quote-invalid':
    'Кавычка внутри ячейки: заключите всю ячейку в кавычки, а каждую кавычку внутри удвойте.',
  'body-too-large': 'Слишком много данных сразу: файл или форма больше, чем здесь принимается.',
  'body-length-required': 'Запрос не сообщает свою длину (Content-Length).',
  'body-too-deep': 'Отправленные данные слишком глубоко вложены.',
  'media-type-unsupported': 'Такие данные здесь не принимаются.',
  'csv-link-duplicate':
    'Эта ссылка есть в нескольких строках: следующие строки товара — его варианты, с пустыми столбцами товара.',
  'csv-stock-moved':
    'Остаток изменился после выгрузки файла (заказ, возврат или другой менеджер); сейчас он указан в скобках. Пересчитайте или выгрузите файл заново.',
  'csv-stock-seen-required':
    'Новому остатку товара, который уже есть в магазине, нужна цифра, от которой считали, в столбце quantity_seen (он есть в выгрузке); сейчас остаток указан в скобках. Выгрузите файл заново или внесите поступления и списания на странице товара.',
  'csv-variant-unknown':
    'Ни у одного варианта этого товара нет такого артикула: сначала добавьте размеры и цвета в таблице вариантов товара.',
  'project-unknown': 'Нет проекта с такой ссылкой.',
  'category-unknown': 'Нет категории с такой ссылкой.',
  'boolean-invalid': 'Укажите 1 или 0.',
  'price-required': 'У товара, который виден в магазине и доступен для заказа, цена должна быть больше 0.',
  'version-required': 'Обновите страницу: форма не сообщает, какую версию записи она изменяет.',
  'record-changed':
    'Пока вы редактировали, кто-то другой изменил эту запись. Загрузите её заново, чтобы увидеть изменения; введённое вами останется здесь, пока вы не решите.',
  'shipped-mail-not-ready': 'Письмо об отправке уходит только по отправленному заказу с трек-номером.',
};

const catalogues: Record<Locale, Record<ErrorKey, string>> = { ru, en };

export const isErrorKey = (message: string): message is ErrorKey => Object.hasOwn(en, message);

/** The text of `message` in `locale`, its `{name}` placeholders filled from `values`. */
export const translateError = (locale: Locale, message: string, values?: Record<string, unknown>): string => {
  const text = isErrorKey(message) ? catalogues[locale][message] : message;
  return values ? text.replace(/\{(\w+)\}/g, (whole, name: string) => String(values[name] ?? whole)) : text;
};

export function translateErrors(
  locale: Locale,
  errors: Record<string, string[]>,
  values?: Record<string, unknown>,
): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(errors).map(([field, messages]) => [
      field,
      messages.map((message) => translateError(locale, message, values)),
    ]),
  );
}
