import { describe, expect, it } from 'vitest';
import { formChanged } from './forms.ts';

/** A product form as it starts (the record's fields as text) and as the browser reads it back. */
const start = {
  name_en: 'Mug',
  categories: ['3'],
  images: ['front.webp', 'back.webp'],
  sale: '',
  visible: 'on',
  weekSale: undefined,
  rows: [{ sku: 'mug-s', stock: '' }],
};

describe('unsaved changes of a back-office form', () => {
  it('sees nothing changed in the fields as the browser reads them: in the page order, one category as itself, empty fields left out', () => {
    const read = {
      intent: 'product',
      version: '4',
      visible: 'on',
      images: ['front.webp', 'back.webp'],
      categories: '3',
      rows: [{ stock: '', sku: 'mug-s' }],
      name_en: 'Mug',
    };
    expect(formChanged(start, read, ['intent', 'version'])).toBe(false);
    expect(formChanged(start, undefined)).toBe(false);
  });

  it('sees a typed text, a reordered picture, a cleared box and a row cell', () => {
    expect(formChanged(start, { ...start, name_en: 'Big mug' })).toBe(true);
    expect(formChanged(start, { ...start, images: ['back.webp', 'front.webp'] })).toBe(true);
    expect(formChanged(start, { ...start, visible: undefined })).toBe(true);
    expect(formChanged(start, { ...start, rows: [{ sku: 'mug-s', stock: '+3' }] })).toBe(true);
  });

  it('does not count the fields the page fills in itself', () => {
    expect(formChanged({ ...start, version: '4' }, { ...start, version: '5' }, ['version'])).toBe(false);
    expect(formChanged({ ...start, version: '4' }, { ...start, version: '5' })).toBe(true);
  });
});
