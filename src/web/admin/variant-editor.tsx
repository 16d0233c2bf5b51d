import { type FormEvent, useEffect, useId, useMemo, useState } from 'react';
import { imageUrl } from '../../contract/images.ts';
import { generateRows, suggestedSku } from '../../contract/variant-combinations.ts';
import { FormSuccess } from '../components/form-field.tsx';
import { adminApi } from './api.ts';
import { useAdminShop } from './text.ts';
import type { AdminProductVariants } from './types.ts';
import { BusyButton, RequestAlert, useAdminRequest } from './ui.tsx';
import { useUnsavedChanges } from './unsaved-changes.tsx';

/**
 * The options editor and the variant table of a saved product (issue 16): options with their
 * values in both languages (a colour's swatch and pictures), "generate all combinations", then
 * SKU, price, sale, weight, stock, per-customer limit and customs data where the variant differs
 * (ADR 0057) per row, or one value for a whole column.
 * Saved together over the product's version, which the product form shares. Stock is entered as a
 * movement (ADR 0056): `+3` received, `-1` written off, or the counted figure over the one shown.
 */

type Kind = 'size' | 'colour' | 'other';
interface ValueDraft {
  key: string;
  id?: number;
  value_ru: string;
  value_en: string;
  swatch: string | null;
  images: string[];
}
interface OptionDraft {
  key: string;
  id?: number;
  kind: Kind;
  name_ru: string;
  name_en: string;
  values: ValueDraft[];
}
interface RowDraft {
  id?: number;
  options: string[];
  sku: string;
  price: string;
  sale: string;
  weight: string;
  /** The stock the table showed (0 for a new row). */
  current: number;
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

let keys = 0;
const newKey = () => `new-${++keys}`;
const text = (value: number | null) => (value === null ? '' : String(value));

function draftOf(product: AdminProductVariants) {
  return {
    options: product.options.map(
      (option): OptionDraft => ({
        key: `option-${option.id}`,
        id: option.id,
        kind: option.kind,
        name_ru: option.name_ru,
        name_en: option.name_en,
        values: option.values.map((value) => ({ ...value, key: `value-${value.id}` })),
      }),
    ),
    rows: product.variants.map(
      (variant): RowDraft => ({
        id: variant.id,
        options: variant.options,
        sku: variant.sku,
        price: text(variant.price),
        sale: text(variant.sale),
        weight: text(variant.weight),
        current: variant.quantity,
        stock: '',
        per_customer_limit: text(variant.per_customer_limit),
        hs_code: variant.hs_code ?? '',
        origin_country: variant.origin_country ?? '',
        customs_description: variant.customs_description ?? '',
        net_weight: text(variant.net_weight),
      }),
    ),
  };
}

/**
 * The stock cell as the save sends it: `+3`/`-1` a receipt or write-off, a bare number the count
 * over the figure shown (a new row's units are its first receipt), anything else as typed for the
 * server to refuse.
 */
function stockFields(id: number | undefined, current: number, typed: string) {
  const stock = typed.trim().replace('−', '-');
  if (stock === '') return {};
  if (/^[+-]/.test(stock) || id === undefined) return { stock_change: stock.replace(/^\+/, '') };
  return { quantity: stock, quantity_seen: current };
}

export function VariantEditor({
  product,
  images,
  version,
  onSaved,
}: {
  product: AdminProductVariants;
  /** The product's pictures, to link to a colour. */
  images: string[];
  /** The product's current version (the product form saves it too). */
  version: number;
  onSaved: (product: AdminProductVariants) => void;
}) {
  const { t, locale } = useAdminShop();
  const request = useAdminRequest();
  const id = useId();
  const [draft, setDraft] = useState(() => draftOf(product));
  const [bulkColumn, setBulkColumn] = useState<Column>('stock');
  const [bulkValue, setBulkValue] = useState('');
  const { options, rows } = draft;
  const loaded = useMemo(() => JSON.stringify(draftOf(product)), [product]);
  useUnsavedChanges(JSON.stringify(draft) !== loaded);

  // Stock moved since the table was shown (409 stock-moved): show the figure now, keep what was typed.
  const moved = request.answer;
  useEffect(() => {
    const variantId = moved?.variantId;
    const figure = moved?.current;
    if (typeof variantId !== 'number' || typeof figure !== 'number') return;
    setDraft((current) => ({
      ...current,
      rows: current.rows.map((row) => (row.id === variantId ? { ...row, current: figure } : row)),
    }));
  }, [moved]);

  const setOptions = (change: (options: OptionDraft[]) => OptionDraft[]) =>
    setDraft((current) => ({ ...current, options: change(current.options) }));
  const setOption = (index: number, change: Partial<OptionDraft>) =>
    setOptions((current) =>
      current.map((option, other) => (other === index ? { ...option, ...change } : option)),
    );
  const setValue = (optionIndex: number, valueIndex: number, change: Partial<ValueDraft>) =>
    setDraft((current) => {
      const before = current.options[optionIndex]?.values[valueIndex];
      const renamed = change.value_en !== undefined && before !== undefined ? before.value_en : undefined;
      return {
        options: current.options.map((option, other) =>
          other === optionIndex
            ? {
                ...option,
                values: option.values.map((value, index) =>
                  index === valueIndex ? { ...value, ...change } : value,
                ),
              }
            : option,
        ),
        // Rows name values by their English text: a renamed value renames it in the rows too.
        rows:
          renamed === undefined
            ? current.rows
            : current.rows.map((row) =>
                row.options[optionIndex] === renamed
                  ? {
                      ...row,
                      options: row.options.map((value, index) =>
                        index === optionIndex ? (change.value_en ?? value) : value,
                      ),
                    }
                  : row,
              ),
      };
    });
  const setRow = (index: number, change: Partial<RowDraft>) =>
    setDraft((current) => ({
      ...current,
      rows: current.rows.map((row, other) => (other === index ? { ...row, ...change } : row)),
    }));

  const generate = () =>
    setDraft((current) => ({
      ...current,
      rows: generateRows(
        current.options.map((option) => option.values.map((value) => value.value_en.trim())),
        current.rows,
        (combination): RowDraft => ({
          options: combination,
          sku: suggestedSku(product.link, combination),
          price: '',
          sale: '',
          weight: '',
          current: 0,
          stock: '',
          per_customer_limit: '',
          hs_code: '',
          origin_country: '',
          customs_description: '',
          net_weight: '',
        }),
      ),
    }));

  const applyBulk = () =>
    setDraft((current) => ({
      ...current,
      rows: current.rows.map((row) => ({ ...row, [bulkColumn]: bulkValue })),
    }));

  const label = (row: RowDraft) =>
    row.options.length === 0
      ? t('admin-default-variant')
      : row.options
          .map((valueEn, index) => {
            const option = options[index];
            const value = option?.values.find((candidate) => candidate.value_en.trim() === valueEn);
            if (!option || !value) return valueEn;
            return locale === 'ru'
              ? `${option.name_ru}: ${value.value_ru}`
              : `${option.name_en}: ${value.value_en}`;
          })
          .join(', ');

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const body = {
      version,
      options: options.map(({ key: _key, ...option }) => ({
        ...option,
        values: option.values.map(({ key: _valueKey, ...value }) => value),
      })),
      variants: rows.map(({ current, stock, ...row }) => ({
        ...row,
        ...stockFields(row.id, current, stock),
        price: row.price === '' ? null : row.price,
        sale: row.sale === '' ? null : row.sale,
        weight: row.weight === '' ? null : row.weight,
        per_customer_limit: row.per_customer_limit === '' ? null : row.per_customer_limit,
      })),
    };
    const answer = await request.run(
      () =>
        adminApi<{ product: AdminProductVariants }>('PATCH', `/products/${product.id}/variants`, {
          json: body,
        }),
      { success: t('admin-variants-saved'), reload: false },
    );
    if (!answer) return;
    setDraft(draftOf(answer.product));
    onSaved(answer.product);
  };

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
  const optionName = (option: OptionDraft, index: number) =>
    (locale === 'ru' ? option.name_ru : option.name_en) || t('admin-option', { number: index + 1 });

  return (
    <form className="admin-form admin-card" onSubmit={save} noValidate aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{t('admin-variants')}</h2>
      <p className="form-field__hint">{t('admin-variants-hint')}</p>
      {request.done ? <FormSuccess>{request.done}</FormSuccess> : null}
      <RequestAlert message={request.message} errors={request.errors} shownFields={[]} />

      {options.map((option, optionIndex) => (
        <fieldset key={option.key} className="admin-fieldset admin-option">
          <legend>{optionName(option, optionIndex)}</legend>
          <div className="admin-form__grid">
            <div className="form-field">
              <label htmlFor={`${id}-${option.key}-kind`}>{t('admin-option-kind')}</label>
              <select
                id={`${id}-${option.key}-kind`}
                value={option.kind}
                onChange={(event) => setOption(optionIndex, { kind: event.target.value as Kind })}
              >
                <option value="size">{t('admin-option-kind-size')}</option>
                <option value="colour">{t('admin-option-kind-colour')}</option>
                <option value="other">{t('admin-option-kind-other')}</option>
              </select>
            </div>
            <div className="form-field">
              <label htmlFor={`${id}-${option.key}-ru`}>{t('admin-option-name-ru')}</label>
              <input
                id={`${id}-${option.key}-ru`}
                value={option.name_ru}
                onChange={(event) => setOption(optionIndex, { name_ru: event.target.value })}
              />
            </div>
            <div className="form-field">
              <label htmlFor={`${id}-${option.key}-en`}>{t('admin-option-name-en')}</label>
              <input
                id={`${id}-${option.key}-en`}
                value={option.name_en}
                onChange={(event) => setOption(optionIndex, { name_en: event.target.value })}
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
                  {option.kind === 'colour' ? <th scope="col">{t('admin-swatch')}</th> : null}
                  <th scope="col">
                    <span className="visually-hidden">{t('admin-actions')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {option.values.map((value, valueIndex) => {
                  const name =
                    (locale === 'ru' ? value.value_ru || value.value_en : value.value_en || value.value_ru) ||
                    String(valueIndex + 1);
                  return (
                    <tr key={value.key}>
                      <td>
                        <input
                          aria-label={`${t('admin-value-ru')} ${valueIndex + 1}`}
                          value={value.value_ru}
                          onChange={(event) =>
                            setValue(optionIndex, valueIndex, { value_ru: event.target.value })
                          }
                        />
                      </td>
                      <td>
                        <input
                          aria-label={`${t('admin-value-en')} ${valueIndex + 1}`}
                          value={value.value_en}
                          onChange={(event) =>
                            setValue(optionIndex, valueIndex, { value_en: event.target.value })
                          }
                        />
                      </td>
                      {option.kind === 'colour' ? (
                        <td>
                          <input
                            type="color"
                            aria-label={`${t('admin-swatch')} ${name}`}
                            value={value.swatch ?? '#000000'}
                            onChange={(event) =>
                              setValue(optionIndex, valueIndex, { swatch: event.target.value })
                            }
                          />
                          {images.length > 0 ? (
                            <fieldset className="admin-value-images">
                              <legend>{t('admin-value-images')}</legend>
                              {images.map((file, imageIndex) => (
                                <label key={file}>
                                  <input
                                    type="checkbox"
                                    checked={value.images.includes(file)}
                                    onChange={(event) =>
                                      setValue(optionIndex, valueIndex, {
                                        images: event.target.checked
                                          ? [...value.images, file]
                                          : value.images.filter((other) => other !== file),
                                      })
                                    }
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
                      ) : null}
                      <td>
                        <button
                          type="button"
                          className="link-button"
                          onClick={() =>
                            setOption(optionIndex, {
                              values: option.values.filter((_, other) => other !== valueIndex),
                            })
                          }
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
              onClick={() =>
                setOption(optionIndex, {
                  values: [
                    ...option.values,
                    { key: newKey(), value_ru: '', value_en: '', swatch: null, images: [] },
                  ],
                })
              }
            >
              {t('admin-add-value')}
            </button>
            <button
              type="button"
              className="button admin-button--danger"
              onClick={() => setOptions((current) => current.filter((_, other) => other !== optionIndex))}
            >
              {t('admin-remove-option', { name: optionName(option, optionIndex) })}
            </button>
          </div>
        </fieldset>
      ))}

      <div className="admin-actions">
        <button
          type="button"
          className="button"
          disabled={options.length >= 3}
          onClick={() =>
            setOptions((current) => [
              ...current,
              {
                key: newKey(),
                kind: current.some((option) => option.kind === 'size') ? 'colour' : 'size',
                name_ru: '',
                name_en: '',
                values: [{ key: newKey(), value_ru: '', value_en: '', swatch: null, images: [] }],
              },
            ])
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
            {...(bulkColumn === 'stock' ? { inputMode: 'numeric' as const } : { type: 'number', min: 0 })}
            value={bulkValue}
            onChange={(event) => setBulkValue(event.target.value)}
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
            {rows.map((row, index) => {
              const variant = label(row);
              return (
                <tr key={row.id ?? JSON.stringify(row.options)}>
                  <th scope="row">{variant}</th>
                  {COLUMNS.map((column) => (
                    <td key={column} className={column === 'stock' ? 'admin-variants__stock' : undefined}>
                      {column === 'stock' && row.id !== undefined ? (
                        <span className="admin-variants__current">{row.current}</span>
                      ) : null}
                      <input
                        aria-label={
                          column === 'stock'
                            ? t('admin-stock-cell-label', { variant, current: row.current })
                            : t('admin-cell-label', { column: columnTitle[column], variant })
                        }
                        aria-invalid={
                          (
                            column === 'stock'
                              ? ['quantity', 'quantity_seen', 'stock_change'].some(
                                  (field) => request.errors[`variants.${index}.${field}`],
                                )
                              : request.errors[`variants.${index}.${column}`]
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
                        value={row[column]}
                        onChange={(event) => setRow(index, { [column]: event.target.value })}
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
        <BusyButton busy={request.busy} primary>
          {t('admin-save-variants')}
        </BusyButton>
      </div>
    </form>
  );
}
