import { useMemo } from 'react';
import { countryOptions } from '../../contract/countries.ts';
import { FormField, SelectField } from '../components/form-field.tsx';
import { useAdminShop } from './text.ts';

/** The product form's customs and box fields (ADR 0057), as the inputs hold them: '' clears one. */
export const PRODUCT_CUSTOMS_FIELDS = [
  'hs_code',
  'origin_country',
  'customs_description',
  'net_weight',
  'box_length',
  'box_width',
  'box_height',
] as const;
type ProductCustomsField = (typeof PRODUCT_CUSTOMS_FIELDS)[number];
export type ProductCustomsValues = Record<ProductCustomsField, string>;

/** A product's customs and box fields as the inputs start: its figures as text, '' for none. */
export const productCustomsValues = (
  product: Partial<Record<ProductCustomsField, string | number | null>> | null,
): ProductCustomsValues =>
  Object.fromEntries(
    PRODUCT_CUSTOMS_FIELDS.map((field) => [field, product?.[field] == null ? '' : String(product[field])]),
  ) as ProductCustomsValues;

/** The fieldset; `field` gives each input its name, starting value and texts (the form's `fieldProps`). */
export function ProductCustomsFieldset({
  field,
}: {
  field: (name: ProductCustomsField) => { name: string; defaultValue: string; errors?: string[] | undefined };
}) {
  const { t, locale } = useAdminShop();
  const countries = useMemo(() => countryOptions(locale), [locale]);
  return (
    <fieldset className="admin-fieldset">
      <legend>{t('admin-customs')}</legend>
      <p className="form-field__hint">{t('admin-customs-hint')}</p>
      <div className="admin-form__grid">
        <FormField {...field('hs_code')} inputMode="numeric" label={t('admin-hs-code')} />
        <SelectField {...field('origin_country')} label={t('admin-origin-country')}>
          <option value="">—</option>
          {countries.map((country) => (
            <option key={country.value} value={country.value}>
              {country.name}
            </option>
          ))}
        </SelectField>
        <FormField {...field('net_weight')} type="number" min={1} step="1" label={t('admin-net-weight')} />
      </div>
      <FormField {...field('customs_description')} lang="en" wide label={t('admin-customs-description')} />
      <fieldset className="admin-fieldset">
        <legend>{t('admin-box-size')}</legend>
        <p className="form-field__hint">{t('admin-box-hint')}</p>
        <div className="admin-form__grid">
          <FormField {...field('box_length')} type="number" min={1} step="1" label={t('admin-box-length')} />
          <FormField {...field('box_width')} type="number" min={1} step="1" label={t('admin-box-width')} />
          <FormField {...field('box_height')} type="number" min={1} step="1" label={t('admin-box-height')} />
        </div>
      </fieldset>
    </fieldset>
  );
}
