import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { Locale } from '../../contract/locale.ts';
import { paragraphs } from './paragraphs.tsx';

interface Section {
  id: string;
  heading: string;
  text: ReactNode[];
}

interface AboutContent {
  title: string;
  description: string;
  intro: ReactNode[];
  sections: Section[];
  wishlist: Section;
  contactsHeading: string;
  contacts: (email: ReactNode) => ReactNode;
}

const content: Record<Locale, AboutContent> = {
  ru: {
    title: 'О Витрине',
    description:
      'Витрина — небольшой магазин лимитированного мерча инди- и AA-игр. Делаем вещи вместе со студиями и художниками, упаковываем вручную и отправляем по всему миру.',
    intro: [
      'Витрина — небольшой магазин мерча по играм, которые мы любим сами. Мы работаем напрямую со студиями и художниками и выпускаем вещи небольшими тиражами: когда тираж распродан, он, как правило, не повторяется.',
    ],
    sections: [
      {
        id: 'what',
        heading: 'Что мы продаём',
        text: [
          'Одежду, кружки, постеры, фигурки, значки и другие вещи по инди- и AA-играм. Каталог удобно смотреть по проектам — то есть по играм — или по категориям товаров.',
          'В карточке товара всегда видно, сколько экземпляров осталось. Если вещь закончилась, добавьте её в избранное: иногда мы делаем дополнительный тираж.',
        ],
      },
      {
        id: 'how',
        heading: 'Как мы работаем',
        text: [
          <>
            Каждый заказ собираем и упаковываем вручную и отправляем в течение недели после оплаты: по России
            — Почтой России или Boxberry, в другие страны — Почтой России. Подробности — на странице{' '}
            <Link to="/shipping">«Доставка»</Link>.
          </>,
          <>
            Заказы оплачиваются заранее через Robokassa или PayPal, см. <Link to="/payment">«Оплата»</Link>.
            Цены показаны в рублях, а в английской версии сайта — в долларах США по текущему курсу.
          </>,
          <>
            Многие вещи мы делаем вместе с <Link to="/partners">партнёрами</Link>: студиями, художниками и
            мастерскими.
          </>,
        ],
      },
    ],
    wishlist: {
      id: 'wishlist',
      heading: 'Избранное и задуманные товары',
      text: [
        <>
          Нажмите на сердечко рядом с товаром, чтобы добавить его в <Link to="/wishlist">избранное</Link>.
          Избранное доступно после <Link to="/login">входа</Link> в аккаунт: так список не потеряется и будет
          один на всех ваших устройствах.
        </>,
        'Некоторые товары пока только задуманы: дизайн готов, но сама вещь ещё не произведена. Такие товары помечены «Задумано», заказать их нельзя — но их можно добавить в избранное.',
        'Избранное для нас — способ понять, что действительно стоит сделать. Когда задуманный товар будет готов, все, кто добавил его в избранное, получат письмо на e-mail и смогут заказать его одними из первых.',
      ],
    },
    contactsHeading: 'Связаться с нами',
    contacts: (email) => (
      <>
        Пишите на {email} или через <Link to="/feedback">форму обратной связи</Link>. Обычно мы отвечаем в
        течение пары рабочих дней.
      </>
    ),
  },
  en: {
    title: 'About Vitrina',
    description:
      'Vitrina is a small shop of limited-edition merch from indie and AA games. We make things with studios and artists, pack every order by hand and ship worldwide.',
    intro: [
      'Vitrina is a small shop of merch from games we love ourselves. We work directly with studios and artists and make things in small runs: once a run sells out, it usually does not come back.',
    ],
    sections: [
      {
        id: 'what',
        heading: 'What we sell',
        text: [
          'Apparel, mugs, posters, figures, pins and more from indie and AA games. Browse the catalogue by project (that is, by game) or by category.',
          'Every product page shows how many pieces are left. If something has sold out, add it to your wishlist: sometimes we make another run.',
        ],
      },
      {
        id: 'how',
        heading: 'How we work',
        text: [
          <>
            We pack every order by hand and ship it within a week of payment: worldwide by Russian Post, and
            within Russia also by Boxberry. See <Link to="/shipping">shipping</Link> for the details.
          </>,
          <>
            Orders are paid upfront with Robokassa or PayPal, see <Link to="/payment">payment</Link>. Prices
            are in US dollars at the current exchange rate in the English version of the shop, and in roubles
            in the Russian one.
          </>,
          <>
            Many of our items are made together with our <Link to="/partners">partners</Link>: studios,
            artists and workshops.
          </>,
        ],
      },
    ],
    wishlist: {
      id: 'wishlist',
      heading: 'Wishlist and envisioned items',
      text: [
        <>
          Use the heart button on a product to add it to your <Link to="/wishlist">wishlist</Link>. The
          wishlist is there once you <Link to="/login">sign in</Link>, so it is never lost and is the same on
          all your devices.
        </>,
        'Some items are only envisioned: the design is ready, but the item itself has not been made yet. They are marked “Envisioned” and cannot be ordered, but you can add them to your wishlist.',
        'Wishlists tell us what is really worth making. When an envisioned item is made, everyone who wishlisted it gets an e-mail and can order it among the first.',
      ],
    },
    contactsHeading: 'Get in touch',
    contacts: (email) => (
      <>
        Write to {email} or use the <Link to="/feedback">feedback form</Link>. We usually answer within a
        couple of business days.
      </>
    ),
  },
};

/** The about page's title and description for search engines, in each language. */
export const aboutHead = (locale: Locale) => ({
  title: content[locale].title,
  description: content[locale].description,
});

/** The about page's built-in text, shown until staff write their own in the back office. */
export function AboutText({ locale, email }: { locale: Locale; email: string }) {
  const page = content[locale];
  return (
    <>
      <div className="static-page__intro">{paragraphs(page.intro)}</div>

      {page.sections.map((section) => (
        <section key={section.id} aria-labelledby={`about-${section.id}`}>
          <h2 id={`about-${section.id}`}>{section.heading}</h2>
          {paragraphs(section.text)}
        </section>
      ))}

      <section aria-labelledby={page.wishlist.id}>
        <h2 id={page.wishlist.id}>{page.wishlist.heading}</h2>
        {paragraphs(page.wishlist.text)}
      </section>

      {email ? (
        <section aria-labelledby="about-contacts">
          <h2 id="about-contacts">{page.contactsHeading}</h2>
          <p>{page.contacts(<a href={`mailto:${email}`}>{email}</a>)}</p>
        </section>
      ) : null}
    </>
  );
}
