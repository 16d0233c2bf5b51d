import { describe, expect, it } from 'vitest';
import { auditFields, auditValueText } from './audit-fields.ts';

const words = { yes: 'да', no: 'нет', dateTime: (iso: string) => `[${iso.slice(0, 10)}]` };

describe('the audit log in words', () => {
  it('lists the fields that changed, leaving out the version a save always bumps', () => {
    expect(
      auditFields(
        { id: 1, name_ru: 'Кружка', price: 900, version: 3 },
        { id: 1, name_ru: 'Кружка', price: 990, version: 4 },
      ),
    ).toEqual(['price']);
    expect(auditFields(null, { id: 5, name_ru: 'Новый', visible: true })).toEqual(['name_ru', 'visible']);
  });

  it('shows values as a person reads them, never as JSON', () => {
    expect(auditValueText(true, words)).toBe('да');
    expect(auditValueText(null, words)).toBe('—');
    expect(auditValueText('2026-03-02T20:30:00.000Z', words)).toBe('[2026-03-02]');
    expect(auditValueText('<p>Тёплая <strong>кружка</strong></p>', words)).toBe('Тёплая кружка');
    expect(auditValueText(['a.webp', 'b.webp'], words)).toBe('a.webp; b.webp');
    expect(auditValueText({ id: 2, name_ru: 'Весенний дроп', name_en: 'Spring drop' }, words)).toBe(
      'Весенний дроп',
    );
    const text = auditValueText([{ sku: null, quantity: 3, version: 1, hs_code: '6109' }], words);
    expect(text).toBe('sku: —, quantity: 3, hs code: 6109');
    expect(text).not.toMatch(/[{}"]/);
  });
});
