import { getFormProps } from '@conform-to/react';
import { useId, useRef, useState } from 'react';
import { useFetcher } from 'react-router';
import { productVariantsSave, stockMovedRefusal } from '../../contract/admin.ts';
import type { productVariantsEditor } from '../../contract/admin-answers.ts';
import { imageUrl } from '../../contract/images.ts';
import { generateRows, suggestedSku } from '../../contract/variant-combinations.ts';
import type { z } from '../../contract/zod.ts';
import { FormSuccess } from '../components/form-field.tsx';
import type { ProductAction } from '../routes/admin/product.tsx';
import { type FormFields, formAlert, formChanged, useAdminForm } from './forms.ts';
import { useAdminShop } from './text.ts';
import { BusyButton, RequestAlert } from './ui.tsx';
import { useUnsavedChanges } from './unsaved-changes.tsx';

/**
 * The options editor and the variant table of a saved product (issue 16): options with their
 * values in both languages (a colour's swatch and pictures), "generate all combinations", then
 * SKU, price, sale, weight, stock, per-customer limit and customs data where the variant differs
 * (ADR 0057) per row, or one value for a whole column.
 * Saved together over the product's version, which the product form shares, through the product
 * page's `clientAction` (intent `variants`, ADR 0073). Stock is entered as a movement (ADR 0056):
 * `+3` received, `-1` written off, or the counted figure over the one shown.
 */

type VariantsRecord = z.output<typeof productVariantsEditor>;
type Kind = VariantsRecord['options'][number]['kind'];

/** The fields as the form holds them: text, ids as text, a value's pictures as a list. */
interface ValueFields {
  id?: string;
  value_ru: string;
  value_en: string;
  /** '' for none: the colour input shows black then, and the API keeps none. */
  swatch: string;
  images: string[];
}
interface OptionFields {
  id?: string;
  kind: Kind;
  name_ru: string;
  name_en: string;
  values: ValueFields[];
}
interface RowFields {
  id?: string;
  options: string[];
  sku: string;
  price: string;
  sale: string;
  weight: string;
  /** The stock the table showed (0 for a new row). */
  current: string;
  /**
   * What the manager typed in the stock column (ADR 0056): `+3` received, `-1` written off, or a
   * bare number counted over `current`; empty leaves the stock as orders left it.
   */
  stock: string;
  /** Units of this variant one customer may buy; empty: only the product's limit (ADR 0041). */
  per_customer_limit: string;
  /** Customs data where this variant differs from its product (ADR 0057); empty: the product's. */
  hs_code: string;
  origin_country: string;
  customs_description: string;
  net_weight: string;
}
type VariantFields = { options: OptionFields[]; variants: RowFields[] };

const COLUMNS = [
  'sku',
  'price',
  'sale',
  'weight',
  'stock',
  'per_customer_limit',
  'hs_code',
  'origin_country',
  'customs_description',
  'net_weight',
] as const;
type Column = (typeof COLUMNS)[number];
/** Columns of text, not numbers. */
const TEXT_COLUMNS = new Set<Column>(['sku', 'hs_code', 'origin_country', 'customs_description']);

const text = (value: number | null) => (value === null ? '' : String(value));

const fieldsOf = (product: VariantsRecord): VariantFields => ({
  options: product.options.map((option) => ({
    id: String(option.id),
    kind: option.kind,
    name_ru: option.name_ru,
    name_en: option.name_en,
    values: option.values.map((value) => ({
      id: String(value.id),
      value_ru: value.value_ru,
      value_en: value.value_en,
      swatch: value.swatch ?? '',
      images: value.images,
    })),
  })),
  variants: product.variants.map((variant) => ({
    id: String(variant.id),
    options: variant.options,
    sku: variant.sku,
    price: text(variant.price),
    sale: text(variant.sale),
    weight: text(variant.weight),
    current: String(variant.quantity),
    stock: '',
    per_customer_limit: text(variant.per_customer_limit),
    hs_code: variant.hs_code ?? '',
    origin_country: variant.origin_country ?? '',
    customs_description: variant.customs_description ?? '',
    net_weight: text(variant.net_weight),
  })),
});

const newValue = (): ValueFields => ({ value_ru: '', value_en: '', swatch: '', images: [] });

/**
 * The stock cell as the save sends it: `+3`/`-1` a receipt or write-off, a bare number the count
 * over the figure shown (a new row's units are its first receipt), anything else as typed for the
 * server to refuse.
 */
function stockFields(saved: boolean, current: unknown, typed: string) {
  const stock = typed.trim().replace('−', '-');
  if (stock === '') return {};
  if (/^[+-]/.test(stock) || !saved) return { stock_change: stock.replace(/^\+/, '') };
  return { quantity: stock, quantity_seen: current };
}

/** Entries of a list the form holds (Conform keeps what the fields hold, as text or lists of it). */
const entriesOf = (value: unknown): Record<string, unknown>[] =>
  Array.isArray(value)
    ? value.map((entry) =>
        typeof entry === 'object' && entry !== null ? Object.fromEntries(Object.entries(entry)) : {},
      )
    : [];
const textOf = (value: unknown) => (typeof value === 'string' ? value : '');

/** What the API reads: each row's stock cell as a movement, without the figure the table showed. */
const prepare = (fields: FormFields): FormFields => ({
  ...fields,
  variants: entriesOf(fields.variants).map(({ current, stock, ...row }) => ({
    ...row,
    ...stockFields(
      typeof row.id === 'string' && row.id !== '',
      current,
      typeof stock === 'string' ? stock : '',
    ),
  })),
});

/** The variants' save as the product page's action and this form check it. */
export const variantChecks = { schema: productVariantsSave, prepare };

/**
 * The fetcher of the variants' save. A save moves the product's version, so the table starts afresh
 * (a new key): the page holds this fetcher too, so its answer outlives the table that sent it.
 */
export const variantsSaveKey = (productId: number) => `product-${productId}-variants`;

/** Fields the page fills in itself, which are nobody's unsaved change. */
const NOT_CHANGES = ['intent', 'version'];

/** A list the form holds as one value (`a`) or several (`[a, b]`), or none. */
const listOf = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.filter((item) => typeof item === 'string')
    : typeof value === 'string'
      ? [value]
      : [];

export function VariantEditor({
  product,
  images,
}: {
  product: VariantsRecord;
  /** The product's pictures as its form holds them, to link to a colour. */
  images: string[];
}) {
  const { t, locale } = useAdminShop();
  const id = useId();
  const fetcher = useFetcher<ProductAction>({ key: variantsSaveKey(product.id) });
  const outcome = fetcher.data?.intent === 'variants' ? fetcher.data : undefined;
  const start = fieldsOf(product);
  const [form, fields] = useAdminForm<VariantFields>({
    ...variantChecks,
    lastResult: outcome?.ok === false ? outcome.result : undefined,
    defaultValue: start,
  });
  useUnsavedChanges(formChanged(start, form.value, NOT_CHANGES));
  // Which column "set for all rows" fills; the value is read from its field when applied.
  const [bulkColumn, setBulkColumn] = useState<Column>('stock');
  const bulkValue = useRef<HTMLInputElement>(null);
  const options = fields.options.getFieldList();
  const rows = fields.variants.getFieldList();
  const alert = formAlert(form);
  const saving = fetcher.state !== 'idle';
  const saved = outcome?.ok === true && !saving;
  // Stock moved since the table was shown (409 stock-moved): show the figure now, keep what was typed.
  const moved = stockMovedRefusal.safeParse(outcome?.ok === false ? outcome.refusal?.answer : undefined).data;

  /** The rows as typed so far, for a change of many of them at once (one update of the list). */
  const rowsNow = () =>
    entriesOf(fields.variants.value).map((row) => ({
      ...row,
      options: listOf(row.options),
      sku: textOf(row.sku),
    }));
  const setRows = (value: Partial<RowFields>[]) => form.update({ name: fields.variants.name, value });

  const optionsNow = () =>
    entriesOf(fields.options.value).map((option) => ({
      kind: textOf(option.kind),
      name_ru: textOf(option.name_ru),
      name_en: textOf(option.name_en),
      values: entriesOf(option.values).map((value) => ({
        value_ru: textOf(value.value_ru),
        value_en: textOf(value.value_en),
      })),
    }));

  /** Rows name values by their English text: a renamed value renames it in the rows too. */
  const renameInRows = (optionIndex: number, before: string, after: string) => {
    const current = rowsNow();
    if (!current.some((row) => row.options[optionIndex] === before)) return;
    setRows(
      current.map((row) =>
        row.options[optionIndex] === before
          ? { ...row, options: row.options.map((value, index) => (index === optionIndex ? after : value)) }
          : row,
      ),
    );
  };

  const generate = () =>
    setRows(
      generateRows(
        optionsNow().map((option) => option.values.map((value) => value.value_en.trim())),
        rowsNow(),
        (combination) => ({
          options: combination,
          sku: suggestedSku(product.link, combination),
          current: '0',
        }),
      ),
    );

  const applyBulk = () => {
    const value = bulkValue.current?.value ?? '';
    setRows(rowsNow().map((row) => ({ ...row, [bulkColumn]: value })));
  };

  const label = (row: { options: string[] }) =>
    row.options.length === 0
      ? t('admin-default-variant')
      : row.options
          .map((valueEn, index) => {
            const option = optionsNow()[index];
            const value = option?.values.find((candidate) => candidate.value_en.trim() === valueEn);
            if (!option || !value) return valueEn;
            return locale === 'ru'
              ? `${option.name_ru}: ${value.value_ru}`
              : `${option.name_en}: ${value.value_en}`;
          })
          .join(', ');

  const columnTitle: Record<Column, string> = {
    sku: t('admin-sku'),
    price: t('admin-variant-price'),
    sale: t('admin-variant-sale'),
    weight: t('admin-variant-weight'),
    stock: t('admin-stock'),
    per_customer_limit: t('admin-per-customer-limit'),
    hs_code: t('admin-hs-code'),
    origin_country: t('admin-origin-country'),
    customs_description: t('admin-customs-description'),
    net_weight: t('admin-net-weight'),
  };
  const optionName = (
    option: { name_ru?: string | undefined; name_en?: string | undefined },
    index: number,
  ) => (locale === 'ru' ? option.name_ru : option.name_en) || t('admin-option', { number: index + 1 });
  /** A cell's texts: the browser's (`variants[0].sku`) or the API's (`variants.0.sku`). */
  const invalid = (index: number, names: readonly string[]) =>
    names.some(
      (name) =>
        alert.errors[`variants[${index}].${name}`] !== undefined ||
        alert.errors[`variants.${index}.${name}`] !== undefined,
    );

  return (
    <fetcher.Form
      method="post"
      {...getFormProps(form)}
      className="admin-form admin-card"
      aria-labelledby={`${id}-heading`}
    >
      <h2 id={`${id}-heading`}>{t('admin-variants')}</h2>
      <p className="form-field__hint">{t('admin-variants-hint')}</p>
      {saved ? <FormSuccess>{t('admin-variants-saved')}</FormSuccess> : null}
      <RequestAlert message={alert.message} errors={alert.errors} shownFields={[]} />
      <input type="hidden" name="intent" value="variants" />
      <input type="hidden" name="version" value={product.version} />

      {options.map((item, optionIndex) => {
        const option = item.getFieldset();
        const values = option.values.getFieldList();
        const shown = { name_ru: option.name_ru.value, name_en: option.name_en.value };
        return (
          <fieldset key={item.key} className="admin-fieldset admin-option">
            <legend>{optionName(shown, optionIndex)}</legend>
            {option.id.initialValue ? (
              <input type="hidden" name={option.id.name} value={option.id.initialValue} />
            ) : null}
            <div className="admin-form__grid">
              <div className="form-field">
                <label htmlFor={`${id}-${item.key}-kind`}>{t('admin-option-kind')}</label>
                <select
                  id={`${id}-${item.key}-kind`}
                  name={option.kind.name}
                  defaultValue={option.kind.initialValue ?? 'other'}
                >
                  <option value="size">{t('admin-option-kind-size')}</option>
                  <option value="colour">{t('admin-option-kind-colour')}</option>
                  <option value="other">{t('admin-option-kind-other')}</option>
                </select>
              </div>
              <div className="form-field">
                <label htmlFor={`${id}-${item.key}-ru`}>{t('admin-option-name-ru')}</label>
                <input
                  id={`${id}-${item.key}-ru`}
                  name={option.name_ru.name}
                  defaultValue={option.name_ru.initialValue ?? ''}
                />
              </div>
              <div className="form-field">
                <label htmlFor={`${id}-${item.key}-en`}>{t('admin-option-name-en')}</label>
                <input
                  id={`${id}-${item.key}-en`}
                  name={option.name_en.name}
                  defaultValue={option.name_en.initialValue ?? ''}
                />
              </div>
            </div>
            <div className="admin-table-scroll">
              <table className="admin-table admin-values">
                <caption className="visually-hidden">{t('admin-option-values')}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('admin-value-ru')}</th>
                    <th scope="col">{t('admin-value-en')}</th>
                    {option.kind.value === 'colour' ? <th scope="col">{t('admin-swatch')}</th> : null}
                    <th scope="col">
                      <span className="visually-hidden">{t('admin-actions')}</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {values.map((valueItem, valueIndex) => {
                    const value = valueItem.getFieldset();
                    const valueRu = value.value_ru.value ?? '';
                    const valueEn = value.value_en.value ?? '';
                    const name =
                      (locale === 'ru' ? valueRu || valueEn : valueEn || valueRu) || String(valueIndex + 1);
                    const swatch = value.swatch.value ?? '';
                    const chosen = listOf(value.images.initialValue);
                    return (
                      <tr key={valueItem.key}>
                        <td>
                          {value.id.initialValue ? (
                            <input type="hidden" name={value.id.name} value={value.id.initialValue} />
                          ) : null}
                          {/* The swatch is sent as chosen ('' for none); the colour input only shows it. */}
                          <input type="hidden" name={value.swatch.name} value={swatch} />
                          <input
                            aria-label={`${t('admin-value-ru')} ${valueIndex + 1}`}
                            name={value.value_ru.name}
                            defaultValue={value.value_ru.initialValue ?? ''}
                          />
                        </td>
                        <td>
                          <input
                            aria-label={`${t('admin-value-en')} ${valueIndex + 1}`}
                            name={value.value_en.name}
                            defaultValue={value.value_en.initialValue ?? ''}
                            onChange={(event) => renameInRows(optionIndex, valueEn, event.target.value)}
                          />
                        </td>
                        {option.kind.value === 'colour' ? (
                          <td>
                            <input
                              type="color"
                              aria-label={`${t('admin-swatch')} ${name}`}
                              value={swatch || '#000000'}
                              onChange={(event) =>
                                form.update({ name: value.swatch.name, value: event.target.value })
                              }
                            />
                            {images.length > 0 ? (
                              <fieldset className="admin-value-images">
                                <legend>{t('admin-value-images')}</legend>
                                {images.map((file, imageIndex) => (
                                  <label key={file}>
                                    <input
                                      type="checkbox"
                                      name={value.images.name}
                                      value={file}
                                      defaultChecked={chosen.includes(file)}
                                    />
                                    <img
                                      src={imageUrl('products', file, 160)}
                                      alt={`${imageIndex + 1}`}
                                      width={40}
                                      height={40}
                                    />
                                  </label>
                                ))}
                              </fieldset>
                            ) : null}
                          </td>
                        ) : (
                          // A value's pictures stay as they are while its option is not a colour.
                          listOf(value.images.value).map((file) => (
                            <input key={file} type="hidden" name={value.images.name} value={file} />
                          ))
                        )}
                        <td>
                          <button
                            type="button"
                            className="link-button"
                            onClick={() => form.remove({ name: option.values.name, index: valueIndex })}
                          >
                            ×<span className="visually-hidden">{t('admin-remove-value', { name })}</span>
                          </button>
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
            <div className="admin-actions">
              <button
                type="button"
                className="button"
                onClick={() => form.insert({ name: option.values.name, defaultValue: newValue() })}
              >
                {t('admin-add-value')}
              </button>
              <button
                type="button"
                className="button admin-button--danger"
                onClick={() => form.remove({ name: fields.options.name, index: optionIndex })}
              >
                {t('admin-remove-option', { name: optionName(shown, optionIndex) })}
              </button>
            </div>
          </fieldset>
        );
      })}

      <div className="admin-actions">
        <button
          type="button"
          className="button"
          disabled={options.length >= 3}
          onClick={() =>
            form.insert({
              name: fields.options.name,
              defaultValue: {
                kind: optionsNow().some((option) => option.kind === 'size') ? 'colour' : 'size',
                name_ru: '',
                name_en: '',
                values: [newValue()],
              },
            })
          }
        >
          {t('admin-add-option')}
        </button>
        <button type="button" className="button" onClick={generate} aria-describedby={`${id}-generate-hint`}>
          {t('admin-generate-variants')}
        </button>
      </div>
      <p id={`${id}-generate-hint`} className="form-field__hint">
        {t('admin-generate-hint')}
      </p>

      <div className="admin-bulk">
        <div className="form-field">
          <label htmlFor={`${id}-bulk-column`}>{t('admin-bulk-column')}</label>
          <select
            id={`${id}-bulk-column`}
            value={bulkColumn}
            onChange={(event) => setBulkColumn(event.target.value as Column)}
          >
            {COLUMNS.filter((column) => column !== 'sku').map((column) => (
              <option key={column} value={column}>
                {columnTitle[column]}
              </option>
            ))}
          </select>
        </div>
        <div className="form-field">
          <label htmlFor={`${id}-bulk-value`}>{t('admin-bulk-value')}</label>
          <input
            id={`${id}-bulk-value`}
            ref={bulkValue}
            {...(bulkColumn === 'stock' ? { inputMode: 'numeric' as const } : { type: 'number', min: 0 })}
          />
        </div>
        <button type="button" className="button" onClick={applyBulk}>
          {t('admin-bulk-apply')}
        </button>
      </div>

      <div className="admin-table-scroll">
        <table className="admin-table admin-variants">
          <caption className="visually-hidden">{t('admin-variants')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('admin-variant')}</th>
              {COLUMNS.map((column) => (
                <th key={column} scope="col">
                  {columnTitle[column]}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((item, index) => {
              const row = item.getFieldset();
              const rowId = row.id.initialValue;
              const valuesOfRow = listOf(row.options.value);
              const variant = label({ options: valuesOfRow });
              const current =
                moved !== undefined && rowId === String(moved.variantId)
                  ? String(moved.current)
                  : (row.current.value ?? '0');
              return (
                <tr key={item.key}>
                  <th scope="row">
                    {variant}
                    {rowId ? <input type="hidden" name={row.id.name} value={rowId} /> : null}
                    {valuesOfRow.map((value, valueIndex) => (
                      <input
                        // biome-ignore lint/suspicious/noArrayIndexKey: a row's values are its options' in order.
                        key={valueIndex}
                        type="hidden"
                        name={`${row.options.name}[${valueIndex}]`}
                        value={value}
                      />
                    ))}
                    <input type="hidden" name={row.current.name} value={current} />
                  </th>
                  {COLUMNS.map((column) => (
                    <td key={column} className={column === 'stock' ? 'admin-variants__stock' : undefined}>
                      {column === 'stock' && rowId ? (
                        <span className="admin-variants__current">{current}</span>
                      ) : null}
                      <input
                        aria-label={
                          column === 'stock'
                            ? t('admin-stock-cell-label', { variant, current: Number(current) })
                            : t('admin-cell-label', { column: columnTitle[column], variant })
                        }
                        aria-invalid={
                          invalid(
                            index,
                            column === 'stock' ? ['quantity', 'quantity_seen', 'stock_change'] : [column],
                          )
                            ? true
                            : undefined
                        }
                        {...(TEXT_COLUMNS.has(column)
                          ? {}
                          : column === 'stock'
                            ? { inputMode: 'numeric' as const, placeholder: '+0', size: 5 }
                            : {
                                type: 'number',
                                min: column === 'per_customer_limit' ? 1 : 0,
                                step: column === 'price' || column === 'sale' ? '0.01' : '1',
                              })}
                        name={row[column].name}
                        defaultValue={row[column].initialValue ?? ''}
                      />
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>

      <div className="admin-actions admin-form__save">
        <BusyButton busy={saving} primary>
          {t('admin-save-variants')}
        </BusyButton>
      </div>
    </fetcher.Form>
  );
}
