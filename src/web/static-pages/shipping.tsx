import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { Locale } from '../../contract/locale.ts';
import { paragraphs } from './paragraphs.tsx';

interface DeliveryMethod {
  id: string;
  name: string;
  area: string;
  text: string[];
}

interface ShippingContent {
  description: string;
  intro: string[];
  methodsHeading: string;
  methods: DeliveryMethod[];
  dispatchHeading: string;
  dispatch: string[];
  costHeading: string;
  cost: string[];
  customsHeading: string;
  customs: string[];
  paymentHeading: string;
  payment: ReactNode[];
  questionsHeading: string;
  questions: (email: ReactNode) => ReactNode;
}

const content: Record<Locale, ShippingContent> = {
  ru: {
    description:
      'Доставка мерча Витрины по всему миру Почтой России, а по России ещё и Boxberry: в пункт выдачи или курьером. Отправляем в течение недели после оплаты.',
    intro: [
      'Мы отправляем заказы из России почти в любую страну мира. Каждую посылку собираем и упаковываем вручную, чтобы футболка, фигурка или постер доехали до вас в том же виде, в каком ушли со склада.',
      'Способ доставки вы выбираете при оформлении заказа, там же сразу видна её стоимость.',
    ],
    methodsHeading: 'Способы доставки',
    methods: [
      {
        id: 'russian-post',
        name: 'Почта России',
        area: 'Россия и весь мир',
        text: [
          'Единственный способ, который работает для заказов за пределы России. Посылка идёт с трек-номером: мы пришлём его, как только отправим заказ, и вы сможете следить за ней на сайте Почты России или почтовой службы своей страны.',
          'В пути посылка бывает до месяца, иногда быстрее: всё зависит от страны, таможни и местной почты.',
        ],
      },
      {
        id: 'boxberry',
        name: 'Boxberry: пункт выдачи',
        area: 'только по России',
        text: [
          'Удобно, если не хотите ждать курьера. При оформлении выберите ближайший пункт выдачи на карте: его адрес подставится в поле адреса заказа, а при желании уточнение можно написать в комментарии к заказу.',
          'Когда посылка приедет, Boxberry пришлёт SMS на номер телефона из заказа. Забрать её можно по паспорту или коду из сообщения.',
        ],
      },
      {
        id: 'boxberry-courier',
        name: 'Boxberry: курьер',
        area: 'только по России',
        text: [
          'Курьер привезёт посылку прямо к двери по адресу из заказа. Перед приездом он позвонит, поэтому, пожалуйста, укажите телефон, по которому вы точно ответите.',
        ],
      },
    ],
    dispatchHeading: 'Когда мы отправляем заказ',
    dispatch: [
      'Заказы уходят в течение одной недели после оплаты, обычно быстрее. Товары резервируются за вами, как только заказ оформлен, поэтому лимитированная вещь, которую вы успели положить в заказ, никуда не денется.',
      'Задуманные товары (с пометкой «Задумано») ещё не произведены, и заказать их нельзя. Добавьте их в избранное, и мы напишем, когда они появятся.',
    ],
    costHeading: 'Сколько стоит доставка',
    cost: [
      'Стоимость считается автоматически при оформлении заказа: по весу посылки, стране и почтовому индексу получателя и выбранному способу доставки. Вы увидите точную сумму до оплаты, никаких доплат потом не будет.',
      'В русской версии сайта суммы показаны в рублях, в английской — в долларах США по текущему курсу.',
    ],
    customsHeading: 'Таможня',
    customs: [
      'При доставке за пределы России посылка проходит таможню страны получателя. Мы честно заполняем декларацию и указываем реальную стоимость товаров. Если в вашей стране действуют пошлины или налог на импорт, их взимает местная таможня или почта при получении: это не зависит от нас, и в стоимость доставки эти платежи не входят.',
    ],
    paymentHeading: 'Оплата',
    payment: [
      'Все заказы оплачиваются заранее, при оформлении; оплаты при получении нет. Собирать посылку мы начинаем, как только платёж подтверждён.',
      <>
        Оплатить можно через <strong>Robokassa</strong> (банковские карты, электронные кошельки и другие
        способы, которые она предлагает) или через <strong>PayPal</strong>.
      </>,
      <>
        Подробнее о валюте, безопасности и возвратах — на странице <Link to="/payment">«Оплата»</Link>.
      </>,
    ],
    questionsHeading: 'Остались вопросы?',
    questions: (email) => (
      <>Напишите нам на {email}, и мы поможем выбрать способ доставки или найдём вашу посылку.</>
    ),
  },
  en: {
    description:
      'Vitrina ships merch worldwide by Russian Post, and within Russia by Boxberry to a pickup point or by courier. Orders ship within one week of payment.',
    intro: [
      'We ship from Russia to almost every country in the world. Every parcel is packed by hand, so your T-shirt, figure or poster arrives looking exactly as it did when it left our shelf.',
      'You choose a delivery method at checkout and see its price right away.',
    ],
    methodsHeading: 'Delivery methods',
    methods: [
      {
        id: 'russian-post',
        name: 'Russian Post',
        area: 'Russia and worldwide',
        text: [
          'The one method that works for orders outside Russia. Parcels are tracked: we send you the tracking number as soon as your order is on its way, and you can follow it on the Russian Post website or your local postal service.',
          'Delivery takes up to a month, often less, depending on the country, customs and the local post.',
        ],
      },
      {
        id: 'boxberry',
        name: 'Boxberry pickup point',
        area: 'Russia only',
        text: [
          'Handy if you would rather not wait in for a courier. At checkout, pick the nearest pickup point on the map: its address goes into the address of your order, and you can add any details in the order comment.',
          'When the parcel arrives, Boxberry texts the phone number of the order. Collect it with your passport or the code from the message.',
        ],
      },
      {
        id: 'boxberry-courier',
        name: 'Boxberry courier',
        area: 'Russia only',
        text: [
          'A courier brings the parcel to your door at the address of your order. They call before coming, so please give a phone number you will answer.',
        ],
      },
    ],
    dispatchHeading: 'When we ship',
    dispatch: [
      'Orders ship within one week of payment, usually sooner. Items are reserved for you the moment you place the order, so a limited edition in your order will not sell out from under you.',
      'Envisioned items (marked “Envisioned”) have not been made yet and cannot be ordered. Add them to your wishlist and we will write to you when they are ready.',
    ],
    costHeading: 'What shipping costs',
    cost: [
      'Shipping is calculated at checkout from the weight of the parcel, the destination country and postcode, and the delivery method you choose. You see the exact amount before you pay, and there is nothing extra to pay later.',
      'The English version of the shop shows amounts in US dollars at the current exchange rate; the Russian version shows roubles.',
    ],
    customsHeading: 'Customs',
    customs: [
      'Parcels going abroad clear customs in the destination country. We fill in the declaration honestly with the real value of the goods. If your country charges import duties or taxes, the local customs office or post collects them on delivery: they are outside our control and not included in the shipping cost.',
    ],
    paymentHeading: 'Payment',
    payment: [
      'Every order is paid upfront when you place it; there is no cash on delivery. We start packing as soon as the payment is confirmed.',
      <>
        You can pay with <strong>Robokassa</strong> (bank cards, e-wallets and the other methods it offers) or
        with <strong>PayPal</strong>.
      </>,
      <>
        Currency, security and refunds are explained on the <Link to="/payment">payment page</Link>.
      </>,
    ],
    questionsHeading: 'Any questions?',
    questions: (email) => (
      <>Write to us at {email}: we will help you choose a delivery method or track down your parcel.</>
    ),
  },
};

/** What search engines show for the shipping page, in each language. */
export const shippingDescription = (locale: Locale) => content[locale].description;

/** The shipping page's built-in text, shown until staff write their own in the back office. */
export function ShippingText({ locale, email }: { locale: Locale; email: string }) {
  const page = content[locale];
  return (
    <>
      <div className="static-page__intro">{paragraphs(page.intro)}</div>

      <section aria-labelledby="shipping-methods">
        <h2 id="shipping-methods">{page.methodsHeading}</h2>
        <ul className="delivery-methods">
          {page.methods.map((method) => (
            <li key={method.id} className="delivery-method">
              <h3 id={`method-${method.id}`}>{method.name}</h3>
              <p className="delivery-method__area">{method.area}</p>
              {paragraphs(method.text)}
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="shipping-dispatch">
        <h2 id="shipping-dispatch">{page.dispatchHeading}</h2>
        {paragraphs(page.dispatch)}
      </section>

      <section aria-labelledby="shipping-cost">
        <h2 id="shipping-cost">{page.costHeading}</h2>
        {paragraphs(page.cost)}
      </section>

      <section aria-labelledby="shipping-customs">
        <h2 id="shipping-customs">{page.customsHeading}</h2>
        {paragraphs(page.customs)}
      </section>

      <section aria-labelledby="payment">
        <h2 id="payment">{page.paymentHeading}</h2>
        {paragraphs(page.payment)}
      </section>

      {email ? (
        <section aria-labelledby="shipping-questions">
          <h2 id="shipping-questions">{page.questionsHeading}</h2>
          <p>{page.questions(<a href={`mailto:${email}`}>{email}</a>)}</p>
        </section>
      ) : null}
    </>
  );
}
