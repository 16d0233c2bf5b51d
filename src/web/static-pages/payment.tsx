import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { Locale } from '../../contract/locale.ts';
import { paragraphs } from './paragraphs.tsx';

interface PaymentMethod {
  id: string;
  name: string;
  text: string[];
}

interface Section {
  id: string;
  heading: string;
  text: ReactNode[];
}

interface PaymentContent {
  description: string;
  intro: ReactNode[];
  methodsHeading: string;
  methods: PaymentMethod[];
  sections: Section[];
  questionsHeading: string;
  questions: (email: ReactNode) => ReactNode;
}

const content: Record<Locale, PaymentContent> = {
  ru: {
    description:
      'Как оплатить заказ в Витрине: банковской картой или электронным кошельком через Robokassa либо через PayPal. Только предоплата, возврат денег при отмене.',
    intro: [
      'Все заказы оплачиваются заранее, онлайн, сразу после оформления. Оплаты наличными или при получении у нас нет: так мы можем резервировать лимитированные вещи за покупателями и отправлять заказы в течение недели.',
    ],
    methodsHeading: 'Способы оплаты',
    methods: [
      {
        id: 'robokassa',
        name: 'Robokassa',
        text: [
          'Основной способ. Robokassa принимает банковские карты (Мир, Visa, Mastercard), электронные кошельки и другие способы — полный список вы увидите на её странице оплаты.',
        ],
      },
      {
        id: 'paypal',
        name: 'PayPal',
        text: [
          'Удобно для покупателей за пределами России: можно заплатить с баланса PayPal или привязанной к нему карты. PayPal списывает сумму в долларах США по курсу, зафиксированному в заказе; на шаге оплаты видна сумма в долларах.',
        ],
      },
    ],
    sections: [
      {
        id: 'currency',
        heading: 'Валюта',
        text: [
          'В русской версии магазина цены и оплата — в рублях.',
          'В английской версии цены показаны в долларах США, пересчитанных из рублей по текущему курсу, и сумма к оплате тоже указывается в долларах. В зависимости от способа оплаты и вашей карты платёжная система или банк могут пересчитать её по своему курсу.',
        ],
      },
      {
        id: 'how',
        heading: 'Как проходит оплата',
        text: [
          <>
            Положите товары в <Link to="/cart">корзину</Link>, выберите способ доставки и укажите данные
            получателя. На следующем шаге выберите способ оплаты: мы перенаправим вас на защищённую страницу
            Robokassa или PayPal.
          </>,
          'После оплаты вы вернётесь в магазин и увидите результат. Если вы вошли в аккаунт, заказ появится в истории заказов.',
        ],
      },
      {
        id: 'security',
        heading: 'Безопасность',
        text: [
          'Данные карты вы вводите только на странице платёжной системы. Витрина их не видит и не хранит: мы получаем лишь подтверждение, что заказ оплачен.',
        ],
      },
      {
        id: 'refunds',
        heading: 'Отмена и возврат денег',
        text: [
          'Передумали на странице оплаты? Просто отмените платёж: товары останутся в корзине, и вы сможете вернуться к ним позже.',
          'Если нужно отменить уже оплаченный заказ, напишите нам как можно скорее. Пока заказ не отправлен, мы отменим его и вернём всю сумму тем же способом, которым вы платили. Сроки зачисления зависят от банка или платёжной системы, обычно это несколько рабочих дней. Отправленный заказ отменить уже нельзя.',
        ],
      },
      {
        id: 'problems',
        heading: 'Если что-то пошло не так',
        text: [
          'Если деньги списались, а магазин показал ошибку, не переживайте и не платите повторно: скорее всего, платёж дошёл, а до нас не дошла информация о заказе. Напишите нам, указав номер заказа, и мы всё проверим.',
        ],
      },
    ],
    questionsHeading: 'Вопросы об оплате',
    questions: (email) => <>Пишите на {email} — ответим и поможем.</>,
  },
  en: {
    description:
      'How to pay for your Vitrina order: by bank card or e-wallet through Robokassa, or with PayPal. Payment upfront, full refund if an order is cancelled.',
    intro: [
      'Every order is paid upfront, online, right after you place it. There is no cash on delivery: paying upfront lets us reserve limited editions for you and ship within a week.',
    ],
    methodsHeading: 'Payment methods',
    methods: [
      {
        id: 'robokassa',
        name: 'Robokassa',
        text: [
          'Our main payment service. Robokassa accepts bank cards (Visa, Mastercard, Mir), e-wallets and other methods; you will see the full list on its payment page.',
        ],
      },
      {
        id: 'paypal',
        name: 'PayPal',
        text: [
          'Convenient outside Russia: pay from your PayPal balance or a card linked to it. PayPal charges in US dollars at the rate fixed in your order; the payment step shows the dollar total.',
        ],
      },
    ],
    sections: [
      {
        id: 'currency',
        heading: 'Currency',
        text: [
          'In the English version of the shop, prices are shown in US dollars, converted from roubles at the current exchange rate, and the amount to pay is given in dollars too. Depending on the payment method and your card, the payment service or your bank may convert it at its own rate.',
          'In the Russian version, prices and payments are in roubles.',
        ],
      },
      {
        id: 'how',
        heading: 'How paying works',
        text: [
          <>
            Put items in your <Link to="/cart">cart</Link>, choose a delivery method and enter the recipient’s
            details. On the next step choose how to pay: we send you to the secure Robokassa or PayPal page.
          </>,
          'Once you have paid, you come back to the shop and see the result. If you are signed in, the order appears in your order history.',
        ],
      },
      {
        id: 'security',
        heading: 'Security',
        text: [
          'You enter your card details on the payment provider’s page only. Vitrina never sees or stores them: we only receive the confirmation that the order is paid.',
        ],
      },
      {
        id: 'refunds',
        heading: 'Cancellations and refunds',
        text: [
          'Changed your mind on the payment page? Just cancel the payment: the items stay in your cart for later.',
          'To cancel an order you have already paid for, write to us as soon as possible. As long as it has not shipped, we cancel it and refund the full amount to the method you paid with. How fast the money arrives depends on your bank or payment service, usually a few business days. An order that has shipped can no longer be cancelled.',
        ],
      },
      {
        id: 'problems',
        heading: 'If something goes wrong',
        text: [
          'If your money was taken but the shop showed an error, please do not pay again: most likely the payment went through but the order details did not reach us. Write to us with your order number and we will sort it out.',
        ],
      },
    ],
    questionsHeading: 'Questions about payment',
    questions: (email) => <>Write to {email} and we will be glad to help.</>,
  },
};

/** What search engines show for the payment page, in each language. */
export const paymentDescription = (locale: Locale) => content[locale].description;

/** The payment page's built-in text, shown until staff write their own in the back office. */
export function PaymentText({ locale, email }: { locale: Locale; email: string }) {
  const page = content[locale];
  return (
    <>
      <div className="static-page__intro">{paragraphs(page.intro)}</div>

      <section aria-labelledby="payment-methods">
        <h2 id="payment-methods">{page.methodsHeading}</h2>
        <ul className="payment-methods">
          {page.methods.map((method) => (
            <li key={method.id} className="payment-method">
              <h3 id={`method-${method.id}`}>{method.name}</h3>
              {paragraphs(method.text)}
            </li>
          ))}
        </ul>
      </section>

      {page.sections.map((section) => (
        <section key={section.id} aria-labelledby={`payment-${section.id}`}>
          <h2 id={`payment-${section.id}`}>{section.heading}</h2>
          {paragraphs(section.text)}
        </section>
      ))}

      {email ? (
        <section aria-labelledby="payment-questions">
          <h2 id="payment-questions">{page.questionsHeading}</h2>
          <p>{page.questions(<a href={`mailto:${email}`}>{email}</a>)}</p>
        </section>
      ) : null}
    </>
  );
}
