import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, DatabaseConnection } from '../db/client.ts';
import { partners } from '../db/schema.ts';
import { createTestDatabase } from '../testing/database.ts';
import { listPartners } from './service.ts';

let connection: DatabaseConnection;
let db: Database;

beforeAll(async () => {
  connection = await createTestDatabase();
  db = connection.db;
  await db.insert(partners).values([
    {
      nameRu: 'Пиксельная мастерская',
      nameEn: 'Pixel Workshop',
      descriptionRu: 'Печатаем постеры по играм.',
      descriptionEn: 'We print game posters.',
      image: 'pixel-workshop.webp',
      link: 'https://pixel.example',
      email: 'hello@pixel.example',
      phoneNumber: '+7 495 000-00-00',
      phoneNumberMobile: '+7 900 000-00-00',
      telegram: '@pixel_workshop',
      messenger: 'Discord: pixel#0001',
      socials: [
        { type: 'vk', link: 'https://vk.com/pixel' },
        { type: 'mastodon', link: 'https://mastodon.example/@pixel' },
      ],
      position: 2,
    },
    {
      nameRu: 'Скрытый партнёр',
      nameEn: 'Hidden partner',
      email: 'hidden@partner.example',
      visible: false,
      position: 0,
    },
    {
      nameRu: 'Студия значков',
      nameEn: 'Pin Studio',
      email: 'pins@studio.example',
      link: '',
      position: 1,
    },
  ]);
});

afterAll(async () => {
  await connection?.close();
});

describe('listPartners', () => {
  it('never lists a hidden partner, in either language', async () => {
    for (const locale of ['ru', 'en'] as const) {
      const names = (await listPartners(db, locale)).map((partner) => partner.name);
      expect(names).not.toContain('Hidden partner');
      expect(names).not.toContain('Скрытый партнёр');
    }
  });

  it('lists visible partners in the admin order, by position', async () => {
    const names = (await listPartners(db, 'en')).map((partner) => partner.name);
    expect(names).toEqual(['Pin Studio', 'Pixel Workshop']);
  });

  it('gives names and descriptions in the shopper language', async () => {
    const [, russian] = await listPartners(db, 'ru');
    const [, english] = await listPartners(db, 'en');
    expect(russian).toMatchObject({ name: 'Пиксельная мастерская', desc: 'Печатаем постеры по играм.' });
    expect(english).toMatchObject({ name: 'Pixel Workshop', desc: 'We print game posters.' });
  });

  it('carries every contact of the partner card under the spec names', async () => {
    const [, pixel] = await listPartners(db, 'en');
    expect(pixel).toMatchObject({
      image: 'pixel-workshop.webp',
      link: 'https://pixel.example',
      email: 'hello@pixel.example',
      phone_number: '+7 495 000-00-00',
      phone_number_mobile: '+7 900 000-00-00',
      telegram: '@pixel_workshop',
      messenger: 'Discord: pixel#0001',
      socials: [
        { type: 'vk', link: 'https://vk.com/pixel' },
        { type: 'mastodon', link: 'https://mastodon.example/@pixel' },
      ],
    });
  });

  it('treats a blank optional contact as absent, so the card shows no empty link', async () => {
    const [pins] = await listPartners(db, 'en');
    expect(pins).toMatchObject({
      name: 'Pin Studio',
      link: null,
      image: null,
      phone_number: null,
      telegram: null,
    });
  });
});
