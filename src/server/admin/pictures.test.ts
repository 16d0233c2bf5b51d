import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE_WIDTHS } from '../../contract/images.ts';
import { partners, projects } from '../db/schema.ts';
import { multipartBody, signedInAdmin } from '../testing/admin.ts';
import { createTestApp } from '../testing/app.ts';

/** Project and partner pictures are stored ones: uploaded in the file manager or already logos. */

let shop: Awaited<ReturnType<typeof createTestApp>>;
let cookies: Record<string, string>;

beforeAll(async () => {
  shop = await createTestApp();
  cookies = await signedInAdmin(shop);
});
afterAll(() => shop.close());

async function uploadPicture(colour: string): Promise<string> {
  const data = await sharp({ create: { width: 400, height: 300, channels: 3, background: colour } })
    .png()
    .toBuffer();
  const { payload, contentType } = await multipartBody({ path: '' }, [
    { name: 'logo.png', type: 'image/png', data },
  ]);
  const response = await shop.app.inject({
    method: 'POST',
    url: '/api/admin/files',
    headers: { 'content-type': contentType },
    payload,
    cookies,
  });
  expect(response.statusCode).toBe(200);
  return response.json().file.name;
}

const saveProject = (image: string, locale = 'en') =>
  shop.app.inject({
    method: 'POST',
    url: `/api/admin/projects?locale=${locale}`,
    payload: {
      name_ru: 'Проект',
      name_en: 'Project',
      link: `project-${Math.random().toString(36).slice(2, 8)}`,
      image,
    },
    cookies,
  });

describe('project logos and partner pictures', () => {
  it('makes a picture uploaded in the file manager a project logo, with every width', async () => {
    const name = await uploadPicture('#3355aa');
    expect(await shop.services.storage.exists(`img/projects/${name}`)).toBe(false);

    const response = await saveProject(name);
    expect(response.statusCode).toBe(200);
    expect(response.json().project.image).toBe(name);
    for (const key of [
      `img/projects/${name}`,
      ...IMAGE_WIDTHS.map((width) => `img/projects/${width}/${name}`),
    ]) {
      expect(await shop.services.storage.exists(key)).toBe(true);
    }
    const served = await shop.app.inject({ method: 'GET', url: `/img/projects/160/${name}` });
    expect(served.statusCode).toBe(200);
    // Saved again, it is already a logo.
    expect((await saveProject(name)).statusCode).toBe(200);
  });

  it('refuses a picture name that is not stored, in the caller language, and saves nothing', async () => {
    const before = await shop.db.select().from(projects);
    for (const [image, locale, text] of [
      ['nothing-here.webp', 'en', /no such picture/i],
      ['0123456789abcdef.webp', 'ru', /Такой картинки нет/],
      ['../../etc/passwd', 'en', /no such picture/i],
    ] as const) {
      const response = await saveProject(image, locale);
      expect(response.statusCode).toBe(422);
      expect(response.json().errors.image).toEqual([expect.stringMatching(text)]);
    }
    expect(await shop.db.select().from(projects)).toEqual(before);
    // No logo at all stays allowed.
    expect((await saveProject('')).statusCode).toBe(200);
  });

  it('marks stored names that point nowhere as missing in the back office lists', async () => {
    const [project] = await shop.db
      .insert(projects)
      .values({ link: 'broken-logo', nameRu: 'Сломанный', nameEn: 'Broken', image: 'gone.webp' })
      .returning();
    const name = await uploadPicture('#aa5533');
    expect((await saveProject(name)).statusCode).toBe(200);

    const list = await shop.app.inject({ method: 'GET', url: '/api/admin/projects', cookies });
    const rows = list.json().projects as Array<{ id: number; image: string | null; imageMissing: boolean }>;
    expect(rows.find((row) => row.id === project?.id)).toMatchObject({
      image: 'gone.webp',
      imageMissing: true,
    });
    expect(rows.find((row) => row.image === name)).toMatchObject({ imageMissing: false });
  });

  it('does the same for partner pictures', async () => {
    const name = await uploadPicture('#33aa55');
    const partner = { name_ru: 'Партнёр', name_en: 'Partner', image: name };
    const saved = await shop.app.inject({
      method: 'POST',
      url: '/api/admin/partners',
      payload: partner,
      cookies,
    });
    expect(saved.statusCode).toBe(200);
    expect(await shop.services.storage.exists(`img/partners/640/${name}`)).toBe(true);

    const refused = await shop.app.inject({
      method: 'POST',
      url: '/api/admin/partners?locale=ru',
      payload: { ...partner, image: 'missing.webp' },
      cookies,
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.image).toEqual([
      'Такой картинки нет. Загрузите её или выберите в файловом менеджере.',
    ]);
    expect(await shop.db.select().from(partners).where(eq(partners.image, 'missing.webp'))).toEqual([]);

    await shop.db.update(partners).set({ image: 'gone.webp' });
    const list = await shop.app.inject({ method: 'GET', url: '/api/admin/partners', cookies });
    expect(list.json().partners[0]).toMatchObject({ image: 'gone.webp', imageMissing: true });
  });
});
