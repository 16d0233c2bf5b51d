import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { OVERLAY_COOKIE } from '../../contract/cookies.ts';
import { LOCALE_COOKIE, type Locale } from '../../contract/locale.ts';
import { paragraphs } from './paragraphs.tsx';

/** Shown at the end of the policy; change it with every change of the text. */
const LAST_UPDATED = '2026-11-21';

interface Section {
  id: string;
  heading: string;
  text?: ReactNode[];
  list?: ReactNode[];
  after?: ReactNode[];
}

interface Cookie {
  name: string;
  /** A cookie's literal name (shown as code) rather than a description of it. */
  literal: boolean;
  purpose: string;
  lifetime: string;
}

interface PolicyContent {
  description: string;
  intro: (email: ReactNode) => ReactNode[];
  sections: Section[];
  cookiesHeading: string;
  cookiesIntro: string;
  cookiesCaption: string;
  cookieColumns: [string, string, string];
  cookies: Cookie[];
  cookiesAfter: ReactNode[];
  rightsHeading: string;
  rights: (email: ReactNode) => ReactNode[];
  updated: (date: string) => string;
}

const content: Record<Locale, PolicyContent> = {
  ru: {
    description:
      'Какие персональные данные хранит магазин Витрина, зачем, как долго и кому их передаёт, какие cookie использует и как удалить свои данные.',
    intro: (email) => [
      'Эта политика объясняет, какие персональные данные собирает интернет-магазин «Витрина», зачем они нужны, сколько мы их храним и какие у вас есть права. Мы обрабатываем данные в соответствии с Федеральным законом № 152-ФЗ «О персональных данных» и собираем только то, без чего не можем принять, оплатить и доставить заказ.',
      <>По любым вопросам о ваших данных пишите на {email}.</>,
    ],
    sections: [
      {
        id: 'data',
        heading: 'Какие данные мы храним',
        list: [
          <>
            <strong>Аккаунт:</strong> адрес электронной почты и пароль. Пароль хранится только в виде стойкого
            хеша — узнать его не можем даже мы.
          </>,
          <>
            <strong>Данные для доставки:</strong> имя и фамилия, телефон, страна, город, почтовый индекс и
            адрес, а также комментарий к заказу. Их можно сохранить в профиле, чтобы не вводить при каждом
            заказе.
          </>,
          <>
            <strong>Заказы:</strong> состав и стоимость, способ доставки и оплаты, статус и трек-номер.
          </>,
          <>
            <strong>Корзина и избранное:</strong> какие товары и в каком количестве вы отложили.
          </>,
          <>
            <strong>Обратная связь:</strong> имя, e-mail и текст сообщения, а также IP-адрес отправителя для
            защиты от спама.
          </>,
          <>
            <strong>Технические данные:</strong> IP-адрес, тип браузера и запрошенные страницы в журналах
            сервера — для безопасности и поиска ошибок.
          </>,
        ],
      },
      {
        id: 'purposes',
        heading: 'Зачем они нужны',
        list: [
          'Чтобы создать и защитить ваш аккаунт: подтвердить e-mail, восстановить пароль.',
          'Чтобы принять, оплатить и доставить заказ, а также связаться с вами, если с ним что-то не так.',
          'Чтобы отправлять служебные письма: о заказе, о подтверждении аккаунта, о том, что задуманный товар из вашего избранного уже произведён.',
          'Чтобы отвечать на ваши сообщения.',
        ],
        after: [
          'Мы не продаём персональные данные, не делаем рекламных рассылок без вашего согласия и не используем рекламные или аналитические трекеры. При регистрации вы даёте согласие на обработку данных, отмечая соответствующий пункт; данные заказа обрабатываются, чтобы исполнить договор купли-продажи.',
        ],
      },
      {
        id: 'recipients',
        heading: 'Кому мы передаём данные',
        list: [
          <>
            <strong>Службам доставки</strong> (Почта России, Boxberry): имя, телефон и адрес получателя —
            ровно столько, сколько нужно, чтобы посылка дошла.
          </>,
          <>
            <strong>Платёжным системам:</strong> Robokassa получает номер и сумму заказа; PayPal, если вы
            платите через него, — ещё имя, e-mail, телефон и адрес, чтобы заполнить форму оплаты за вас.
          </>,
          <>
            <strong>Сервису комментариев</strong> на страницах товаров: если вы оставляете отзыв, он
            обрабатывает данные по своим правилам.
          </>,
          'Государственным органам — только когда этого прямо требует закон.',
        ],
      },
      {
        id: 'payments',
        heading: 'Платёжные данные',
        text: [
          'Номер карты, срок её действия и код безопасности вы вводите на странице Robokassa или PayPal. Эти данные обрабатывает платёжная система по своим правилам и стандартам безопасности; Витрина их не получает и не хранит. Мы видим только подтверждение оплаты, её сумму и номер транзакции.',
        ],
      },
      {
        id: 'retention',
        heading: 'Сколько мы храним данные',
        list: [
          'Аккаунт и профиль — пока существует аккаунт. После удаления аккаунта мы стираем профиль в течение 30 дней.',
          'Заказы — столько, сколько требует законодательство о бухгалтерском и налоговом учёте (в России — пять лет), затем удаляем или обезличиваем.',
          'Сообщения обратной связи — не дольше одного года.',
          'Сеанс входа и корзина гостя — до выхода из аккаунта или окончания срока сеанса.',
          'Журналы сервера — не дольше 30 дней.',
        ],
      },
      {
        id: 'security',
        heading: 'Как мы защищаем данные',
        text: [
          'Сайт работает только по HTTPS, пароли хранятся в виде хешей, а доступ к заказам есть лишь у сотрудников, которые их собирают и отправляют.',
        ],
      },
    ],
    cookiesHeading: 'Cookie и хранилище браузера',
    cookiesIntro:
      'Мы используем только те cookie, без которых магазин не работает или не помнит ваш выбор. Рекламных и аналитических cookie у нас нет.',
    cookiesCaption: 'Cookie магазина',
    cookieColumns: ['Cookie', 'Зачем', 'Срок'],
    cookies: [
      {
        name: 'Сеанс',
        literal: false,
        purpose: 'Вход в аккаунт и корзина.',
        lifetime: 'До выхода или окончания сеанса',
      },
      { name: LOCALE_COOKIE, literal: true, purpose: 'Выбранный язык интерфейса.', lifetime: '1 год' },
      {
        name: OVERLAY_COOKIE,
        literal: true,
        purpose: 'Отметка, что вы прочитали уведомление о тестовом режиме.',
        lifetime: '30 дней',
      },
    ],
    cookiesAfter: [
      <>
        Для чтения без сети браузер хранит копии посещённых страниц каталога и ваш выбор, включено ли это
        чтение. Всё это остаётся на вашем устройстве; отключить чтение без сети и удалить копии можно на
        странице <Link to="/about">«О нас»</Link>.
      </>,
      'Сервис комментариев на страницах товаров может устанавливать собственные cookie.',
    ],
    rightsHeading: 'Ваши права',
    rights: (email) => [
      <>
        Вы можете узнать, какие данные о вас мы храним, исправить их (большую часть — сами, в{' '}
        <Link to="/profile">профиле</Link>), потребовать удалить их вместе с аккаунтом и отозвать согласие на
        обработку. Для этого напишите нам на {email} с адреса, указанного в аккаунте. Мы ответим в течение 10
        рабочих дней.
      </>,
      'Если вы считаете, что мы нарушаем ваши права, вы можете обратиться в Роскомнадзор или надзорный орган своей страны.',
    ],
    updated: (date) => `Последнее обновление: ${date}`,
  },
  en: {
    description:
      'What personal data the Vitrina shop keeps, why, for how long and who it is shared with, which cookies it uses and how to have your data deleted.',
    intro: (email) => [
      'This policy explains what personal data the Vitrina online shop collects, why it needs it, how long it keeps it and what your rights are. We process personal data under the Russian Federal Law No. 152-FZ “On Personal Data”, and we only collect what we need to take, charge for and deliver your order.',
      <>For any question about your data, write to {email}.</>,
    ],
    sections: [
      {
        id: 'data',
        heading: 'What we keep',
        list: [
          <>
            <strong>Account:</strong> your e-mail address and password. The password is stored only as a
            strong hash: not even we can read it.
          </>,
          <>
            <strong>Delivery details:</strong> first and last name, phone, country, city, postcode and
            address, plus the order comment. You can save them in your profile so you do not type them for
            every order.
          </>,
          <>
            <strong>Orders:</strong> items and amounts, delivery and payment method, status and tracking
            number.
          </>,
          <>
            <strong>Cart and wishlist:</strong> the items you have put aside and how many.
          </>,
          <>
            <strong>Feedback:</strong> your name, e-mail and message, and the sender’s IP address to keep out
            spam.
          </>,
          <>
            <strong>Technical data:</strong> IP address, browser type and requested pages in the server logs,
            for security and fixing errors.
          </>,
        ],
      },
      {
        id: 'purposes',
        heading: 'Why we need it',
        list: [
          'To create and protect your account: confirm your e-mail, restore your password.',
          'To take, charge for and deliver your order, and to contact you if something is wrong with it.',
          'To send service e-mails: about your order, about confirming your account, and when an envisioned item from your wishlist has been made.',
          'To answer your messages.',
        ],
        after: [
          'We do not sell personal data, do not send marketing e-mails without your consent, and use no advertising or analytics trackers. You consent to the processing when you register by ticking the box; order details are processed to fulfil the sales contract.',
        ],
      },
      {
        id: 'recipients',
        heading: 'Who we share it with',
        list: [
          <>
            <strong>Delivery services</strong> (Russian Post, Boxberry): the recipient’s name, phone and
            address, exactly what a parcel needs to arrive.
          </>,
          <>
            <strong>Payment services:</strong> Robokassa receives the order number and amount; PayPal, if you
            pay with it, also your name, e-mail, phone and address, to fill in the payment form for you.
          </>,
          <>
            <strong>The comments service</strong> on product pages: if you post a review, it processes your
            data under its own terms.
          </>,
          'Public authorities, only when the law expressly requires it.',
        ],
      },
      {
        id: 'payments',
        heading: 'Payment data',
        text: [
          'You enter your card number, expiry date and security code on the Robokassa or PayPal page. The payment service handles them under its own terms and security standards; Vitrina never receives or stores them. We only see the payment confirmation, its amount and the transaction number.',
        ],
      },
      {
        id: 'retention',
        heading: 'How long we keep it',
        list: [
          'Account and profile: as long as the account exists. When you delete your account, we erase the profile within 30 days.',
          'Orders: as long as accounting and tax law requires (five years in Russia); after that they are deleted or anonymised.',
          'Feedback messages: no longer than one year.',
          'Sign-in session and a guest’s cart: until you sign out or the session expires.',
          'Server logs: no longer than 30 days.',
        ],
      },
      {
        id: 'security',
        heading: 'How we protect it',
        text: [
          'The site works over HTTPS only, passwords are stored as hashes, and only the staff who pack and ship orders can see them.',
        ],
      },
    ],
    cookiesHeading: 'Cookies and browser storage',
    cookiesIntro:
      'We only use the cookies the shop cannot work without or needs to remember your choices. There are no advertising or analytics cookies.',
    cookiesCaption: 'Cookies of the shop',
    cookieColumns: ['Cookie', 'Purpose', 'Kept for'],
    cookies: [
      {
        name: 'Session',
        literal: false,
        purpose: 'Keeps you signed in and holds your cart.',
        lifetime: 'Until you sign out or it expires',
      },
      { name: LOCALE_COOKIE, literal: true, purpose: 'Your interface language.', lifetime: '1 year' },
      {
        name: OVERLAY_COOKIE,
        literal: true,
        purpose: 'Remembers that you have read the test-mode notice.',
        lifetime: '30 days',
      },
    ],
    cookiesAfter: [
      <>
        For offline reading, your browser keeps copies of the catalogue pages you have visited and whether
        offline reading is on. All of it stays on your device; you can turn offline reading off and delete the
        copies on the <Link to="/about">about page</Link>.
      </>,
      'The comments service on product pages may set its own cookies.',
    ],
    rightsHeading: 'Your rights',
    rights: (email) => [
      <>
        You can ask what data we keep about you, correct it (most of it yourself, in your{' '}
        <Link to="/profile">profile</Link>), have it deleted together with your account, and withdraw your
        consent. Write to {email} from the address of your account. We answer within 10 business days.
      </>,
      'If you believe we are violating your rights, you can complain to Roskomnadzor or the data protection authority of your country.',
    ],
    updated: (date) => `Last updated: ${date}`,
  },
};

/** What search engines show for the privacy policy, in each language. */
export const privacyPolicyDescription = (locale: Locale) => content[locale].description;

/** The privacy policy's built-in text, shown until staff write their own in the back office. */
export function PrivacyPolicyText({ locale, email }: { locale: Locale; email: string }) {
  const page = content[locale];
  const emailLink = <a href={`mailto:${email}`}>{email}</a>;
  const updated = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(
    new Date(LAST_UPDATED),
  );
  return (
    <>
      <div className="static-page__intro">{paragraphs(page.intro(emailLink))}</div>

      {page.sections.map((section) => (
        <section key={section.id} aria-labelledby={`privacy-${section.id}`}>
          <h2 id={`privacy-${section.id}`}>{section.heading}</h2>
          {paragraphs(section.text)}
          {section.list ? (
            <ul>
              {section.list.map((item, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: fixed prose, never reordered
                <li key={index}>{item}</li>
              ))}
            </ul>
          ) : null}
          {paragraphs(section.after)}
        </section>
      ))}

      <section aria-labelledby="privacy-cookies">
        <h2 id="privacy-cookies">{page.cookiesHeading}</h2>
        <p>{page.cookiesIntro}</p>
        {/* A heading, not a caption: the back office's editor keeps headings but not captions. */}
        <h3 id="privacy-cookies-table">{page.cookiesCaption}</h3>
        <div className="table-scroll">
          {/* The header row in the body, as the back office's editor keeps a table (its header cells are `th scope="col"`). */}
          <table aria-labelledby="privacy-cookies-table">
            <tbody>
              <tr>
                {page.cookieColumns.map((column) => (
                  <th key={column} scope="col">
                    {column}
                  </th>
                ))}
              </tr>
              {page.cookies.map((cookie) => (
                <tr key={cookie.name}>
                  <th scope="row">{cookie.literal ? <code>{cookie.name}</code> : cookie.name}</th>
                  <td>{cookie.purpose}</td>
                  <td>{cookie.lifetime}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {paragraphs(page.cookiesAfter)}
      </section>

      <section aria-labelledby="privacy-rights">
        <h2 id="privacy-rights">{page.rightsHeading}</h2>
        {paragraphs(page.rights(emailLink))}
      </section>

      <p className="static-page__updated">{page.updated(updated)}</p>
    </>
  );
}
