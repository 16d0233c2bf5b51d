import type { Templates } from '../mail-data.ts';
import { paragraph, strong } from '../render.ts';
import { oneLine } from '../wording.ts';

/** Mails about a product the reader waits for: made, back in stock, on sale. */
export const productMails: Templates<'envisioned-available' | 'back-in-stock' | 'release-reminder'> = {
  'envisioned-available': {
    ru: ({ productName, link }) => ({
      // No quotes around the name: product names often carry their own «…».
      subject: `Можно заказать: ${oneLine(productName, 100)}`,
      blocks: [
        paragraph('Хорошие новости! Товар из вашего списка желаний изготовлен, и его уже можно заказать:'),
        paragraph(strong(productName)),
        { kind: 'button', label: 'Перейти к товару', href: link },
        {
          kind: 'note',
          text: 'Вы получили это письмо, потому что добавили товар в список желаний. Тираж ограничен, так что не откладывайте.',
        },
      ],
    }),
    en: ({ productName, link }) => ({
      subject: `Now available: ${oneLine(productName, 100)}`,
      blocks: [
        paragraph('Good news! An item from your wishlist has been made and can now be ordered:'),
        paragraph(strong(productName)),
        { kind: 'button', label: 'View the item', href: link },
        {
          kind: 'note',
          text: 'You are receiving this because you added the item to your wishlist. The edition is limited, so do not wait too long.',
        },
      ],
    }),
  },

  'back-in-stock': {
    ru: ({ productName, options, link }) => ({
      subject: `Снова в наличии: ${oneLine(productName, 100)}`,
      blocks: [
        paragraph('Товар, которого вы ждали, снова в наличии:'),
        paragraph(strong(options ? `${productName} (${options})` : productName)),
        { kind: 'button', label: 'Перейти к товару', href: link },
        {
          kind: 'note',
          text: 'Вы получили это письмо, потому что попросили сообщить о поступлении. Мы пишем об этом один раз; тираж ограничен.',
        },
      ],
    }),
    en: ({ productName, options, link }) => ({
      subject: `Back in stock: ${oneLine(productName, 100)}`,
      blocks: [
        paragraph('The item you were waiting for is back in stock:'),
        paragraph(strong(options ? `${productName} (${options})` : productName)),
        { kind: 'button', label: 'View the item', href: link },
        {
          kind: 'note',
          text: 'You are receiving this because you asked to be told when it returns. We write about it once; the edition is limited.',
        },
      ],
    }),
  },

  'release-reminder': {
    ru: ({ productName, link }) => ({
      subject: `Уже в продаже: ${oneLine(productName, 100)}`,
      blocks: [
        paragraph('Товар, о котором вы просили напомнить, поступил в продажу:'),
        paragraph(strong(productName)),
        { kind: 'button', label: 'Перейти к товару', href: link },
        {
          kind: 'note',
          text: 'Вы получили это письмо, потому что нажали «Напомнить» на странице товара. Мы пишем об этом один раз; тираж ограничен.',
        },
      ],
    }),
    en: ({ productName, link }) => ({
      subject: `On sale now: ${oneLine(productName, 100)}`,
      blocks: [
        paragraph('The item you asked us to remind you of is on sale now:'),
        paragraph(strong(productName)),
        { kind: 'button', label: 'View the item', href: link },
        {
          kind: 'note',
          text: 'You are receiving this because you pressed "Remind me" on the item\'s page. We write about it once; the edition is limited.',
        },
      ],
    }),
  },
};
