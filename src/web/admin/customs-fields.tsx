import { useMemo } from 'react';
import { countryOptions } from '../../contract/countries.ts';
import { FormField, SelectField } from '../components/form-field.tsx';
import { useAdminShop } from './text.ts';
import type { AdminProduct } from './types.ts';

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
export type ProductCustomsDraft = Record<ProductCustomsField, string>;

export const productCustomsDraft = (product: AdminProduct | null): ProductCustomsDraft =>
  Object.fromEntries(
    PRODUCT_CUSTOMS_FIELDS.map((field) => [field, product?.[field] == null ? '' : String(product[field])]),
  ) as ProductCustomsDraft;

export function ProductCustomsFieldset({
  draft,
  errors,
  onChange,
}: {
  draft: ProductCustomsDraft;
  errors: Record<string, string[] | undefined>;
  onChange: (field: ProductCustomsField, value: string) => void;
}) {
  const { t, locale } = useAdminShop();
  const countries = useMemo(() => countryOptions(locale), [locale]);
  const field = (name: ProductCustomsField) => ({
    name,
    value: draft[name],
    onChange: (event: { target: { value: string } }) => onChange(name, event.target.value),
    errors: errors[name],
  });
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
