import { useInputControl } from '@conform-to/react';
import { useState } from 'react';
import {
  Form,
  Link,
  Navigate,
  redirect,
  useFetcher,
  useLocation,
  useNavigate,
  useNavigation,
} from 'react-router';
import { productEdit, productInput, stockMovedRefusal } from '../../../contract/admin.ts';
import {
  adminCategoriesResponse,
  adminProjectsResponse,
  type productEditor,
  productEditorResponse,
  productVariantsEditorResponse,
  stockMovementsResponse,
} from '../../../contract/admin-answers.ts';
import { imageUrl } from '../../../contract/images.ts';
import type { z } from '../../../contract/zod.ts';
import { adminApi, loadAdminAnswer } from '../../admin/api.ts';
import {
  PRODUCT_CUSTOMS_FIELDS,
  ProductCustomsFieldset,
  type ProductCustomsValues,
  productCustomsValues,
} from '../../admin/customs-fields.tsx';
import { FilePicker } from '../../admin/file-picker.tsx';
import {
  adminCall,
  adminWrite,
  type FormFields,
  fieldProps,
  formAlert,
  formChanged,
  revalidateUnlessRefused,
  submitAdminForm,
  useAdminForm,
  withCheckboxes,
} from '../../admin/forms.ts';
import { localInputValue, localTimeZoneLabel, momentOfLocalInput } from '../../admin/local-time.ts';
import { RichTextField } from '../../admin/rich-text-field.tsx';
import { StockHistory } from '../../admin/stock-history.tsx';
import { useAdminShop } from '../../admin/text.ts';
import {
  AdminErrorBoundary,
  AdminLoading,
  AdminPage,
  BusyButton,
  RequestAlert,
  useAdminFormat,
  useMayDelete,
} from '../../admin/ui.tsx';
import { useUnsavedChanges } from '../../admin/unsaved-changes.tsx';
import { VariantEditor, variantChecks, variantsSaveKey } from '../../admin/variant-editor.tsx';
import {
  CheckboxField,
  FormAlert,
  FormField,
  FormSuccess,
  SelectField,
} from '../../components/form-field.tsx';
import type { Route } from './+types/product';

/** The product editor, for a new product (/admin/products/new) and an existing one. */
export async function clientLoader({ request, params }: Route.ClientLoaderArgs) {
  const id = 'id' in params ? params.id : undefined;
  const path = id === undefined ? undefined : `/products/${encodeURIComponent(id)}`;
  const variant = new URL(request.url).searchParams.get('variant') ?? '';
  const [{ projects }, { categories }, product, variants, movements] = await Promise.all([
    loadAdminAnswer(adminProjectsResponse, '/projects', request),
    loadAdminAnswer(adminCategoriesResponse, '/categories', request),
    path === undefined
      ? null
      : loadAdminAnswer(productEditorResponse, path, request).then((answer) => answer.product),
    path === undefined
      ? null
      : loadAdminAnswer(productVariantsEditorResponse, `${path}/variants`, request).then(
          (answer) => answer.product,
        ),
    path === undefined
      ? []
      : loadAdminAnswer(stockMovementsResponse, `${path}/stock-movements`, request, {
          variant: variant || undefined,
        }).then((answer) => answer.movements),
  ]);
  return {
    projects,
    categories,
    product,
    variants,
    movements,
    variant: variant === '' ? undefined : Number(variant),
  };
}

/**
 * The product page's writes, one per `intent`: the product form's save (a new product opens its
 * own page), the product's deletion, and the save of its options and variants. The page's data
 * loads again after each one that went through.
 */
export async function clientAction({ request, params }: Route.ClientActionArgs) {
  const id = 'id' in params ? params.id : undefined;
  const path = id === undefined ? undefined : `/products/${encodeURIComponent(id)}`;
  const formData = await request.formData();
  const intent = formData.get('intent');
  switch (intent) {
    case 'product':
      return {
        intent,
        ...(await submitAdminForm(formData, {
          ...productChecks(path !== undefined),
          send: (json) =>
            path === undefined
              ? adminCall(productEditorResponse, 'POST', '/products', { json })
              : adminCall(productEditorResponse, 'PATCH', path, { json }),
        })),
      };
    case 'delete': {
      if (path === undefined) throw new Response(null, { status: 400 });
      const { error } = await adminWrite(() => adminApi('DELETE', path));
      return error === undefined ? redirect('/admin/products') : { intent, error };
    }
    case 'variants':
      if (path === undefined) throw new Response(null, { status: 400 });
      return {
        intent,
        ...(await submitAdminForm(formData, {
          ...variantChecks,
          send: (json) => adminCall(productVariantsEditorResponse, 'PATCH', `${path}/variants`, { json }),
        })),
      };
    default:
      throw new Response(null, { status: 400 });
  }
}

export type ProductAction = typeof clientAction;

export const shouldRevalidate = revalidateUnlessRefused;

export function HydrateFallback() {
  return <AdminLoading />;
}

type ProductRecord = z.output<typeof productEditor>;

const MAX_IMAGES = 12;

/** The product's fields as the form holds them (text; a ticked box 'on'), or a new product's. */
type ProductFields = ProductCustomsValues & {
  project: string;
  categories: string[];
  name_ru: string;
  name_en: string;
  desc_ru: string;
  desc_en: string;
  link: string;
  images: string[];
  price: string;
  sale: string;
  weight: string;
  /** Ticked: the stock changes with this save (a movement of the ledger, ADR 0056). */
  changeStock?: string;
  quantity: string;
  quantityHardset?: string;
  /** Why the stock changes, kept with the movement (ADR 0056). */
  stock_note: string;
  visible?: string;
  weekSale?: string;
  envisioned?: string;
  position: string;
  /** The product's own release time in the manager's zone, as the datetime-local input holds it. */
  release_at: string;
  per_customer_limit: string;
};

const text = (value: number | null | undefined) =>
  value === null || value === undefined ? '' : String(value);
const ticked = (value: boolean) => (value ? 'on' : undefined);

const fieldsOf = (product: ProductRecord | null): ProductFields => ({
  project: text(product?.project),
  categories: (product?.categories ?? []).map(String),
  name_ru: product?.name_ru ?? '',
  name_en: product?.name_en ?? '',
  desc_ru: product?.desc_ru ?? '',
  desc_en: product?.desc_en ?? '',
  link: product?.link ?? '',
  images: product?.images ?? [],
  price: text(product?.price),
  sale: text(product?.sale),
  weight: text(product?.weight),
  quantity: '',
  stock_note: '',
  visible: ticked(product?.visible ?? true),
  weekSale: ticked(product?.weekSale ?? false),
  envisioned: ticked(product?.envisioned ?? false),
  position: String(product?.position ?? 0),
  // A product in a drop has no field for it: the drop's time is not the form's.
  release_at: product?.drop ? '' : localInputValue(product?.release_at),
  per_customer_limit: text(product?.per_customer_limit),
  ...productCustomsValues(product),
});

/** Fields the page fills in itself, which are nobody's unsaved change. */
const NOT_CHANGES = ['intent', 'version', 'quantity_seen'];

/**
 * What the API reads: the boxes as '1' or '0'; a stock change (with the figure the form showed: if
 * units moved since, the API refuses a count) only when "change the stock" is ticked; the release
 * time as a moment (a product in a drop has no field for it: the drop's time is not the form's).
 */
const prepare = (fields: FormFields): FormFields => {
  const { changeStock, quantity, stock_note, quantity_seen, release_at, ...rest } = withCheckboxes(fields, [
    'visible',
    'weekSale',
    'envisioned',
    'quantityHardset',
  ]);
  return {
    ...rest,
    ...(changeStock === undefined ? {} : { quantity, stock_note, quantity_seen }),
    ...(typeof release_at === 'string' ? { release_at: momentOfLocalInput(release_at) } : {}),
  };
};

const productChecks = (saved: boolean) => ({ schema: saved ? productEdit : productInput, prepare });

/** A new product's page opens saying so (one object: `<Navigate>` navigates again when its state changes). */
const CREATED = { created: true };

/** Fields this form shows errors for; the API's texts for anything else go above the form. */
const FIELDS = [
  'project',
  'categories',
  'name_ru',
  'name_en',
  'desc_ru',
  'desc_en',
  'link',
  'images',
  'price',
  'sale',
  'weight',
  'quantity',
  'quantityHardset',
  'stock_note',
  'release_at',
  'per_customer_limit',
  ...PRODUCT_CUSTOMS_FIELDS,
];

type LoaderData = Route.ComponentProps['loaderData'];

function ProductEditor({
  product,
  variants,
  projects,
  categories,
  movements,
  variant,
  actionData,
}: LoaderData & { actionData: Route.ComponentProps['actionData'] }) {
  const mayDelete = useMayDelete();
  const { t, locale } = useAdminShop();
  const format = useAdminFormat();
  const navigate = useNavigate();
  const location = useLocation();
  const navigation = useNavigation();
  const remover = useFetcher<ProductAction>();
  const outcome = actionData?.intent === 'product' ? actionData : undefined;
  const start = fieldsOf(product);
  const [form, fields] = useAdminForm<ProductFields>({
    ...productChecks(product !== null),
    lastResult: outcome?.ok === false ? outcome.result : undefined,
    defaultValue: start,
  });
  const unsaved = useUnsavedChanges(formChanged(start, form.value, NOT_CHANGES));
  const descRu = useInputControl(fields.desc_ru);
  const descEn = useInputControl(fields.desc_en);
  // The category chosen in the select, not yet added; whether the file manager is open.
  const [categoryToAdd, setCategoryToAdd] = useState('');
  const [picking, setPicking] = useState(false);

  const saving = navigation.formData?.get('intent') === 'product';
  const saved = outcome?.ok === true && !saving;
  const created = (location.state as { created?: boolean } | null)?.created === true && !saved;
  const refusal = outcome?.ok === false ? outcome.refusal : undefined;
  // After a 409 stock-moved the form shows the figure now, which the next count is made over.
  const moved = stockMovedRefusal.safeParse(refusal?.answer).data?.current;
  const shownQuantity = moved ?? product?.currentQuantity ?? 0;
  const hasOptions = (variants?.options.length ?? 0) > 0;
  const changeStock = fields.changeStock.value === 'on';
  const alert = formAlert(form);
  const deleteError = remover.data?.intent === 'delete' ? remover.data.error : undefined;
  const name = (entry: { name_ru: string; name_en: string }) =>
    locale === 'ru' ? entry.name_ru : entry.name_en;

  const chosenCategories = fields.categories.getFieldList();
  const chosenIds = chosenCategories.map((item) => item.value);
  const images = fields.images.getFieldList();
  const imageNames = images.flatMap((item) => (item.value ? [item.value] : []));
  // The API would call a missing project "not found"; the form says what to do.
  const projectErrors =
    fields.project.errors && !fields.project.value ? [t('admin-project-required')] : fields.project.errors;

  const addCategory = () => {
    if (Number(categoryToAdd) > 0 && !chosenIds.includes(categoryToAdd)) {
      form.insert({ name: fields.categories.name, defaultValue: categoryToAdd });
    }
    setCategoryToAdd('');
  };

  const remove = () => {
    if (!product || !window.confirm(t('admin-confirm-delete', { name: name(product) }))) return;
    // What was typed goes with the product.
    unsaved.saved();
    remover.submit({ intent: 'delete' }, { method: 'post' });
  };

  return (
    <AdminPage
      title={product ? t('admin-edit-product', { name: name(product) }) : t('admin-new-product')}
      actions={
        <>
          {product ? (
            <a href={`/product/${product.link}`} className="button" target="_blank" rel="noreferrer">
              {t('admin-view-in-shop')}
            </a>
          ) : null}
          <Link to="/admin/products" className="button">
            {t('admin-back-to-products')}
          </Link>
        </>
      }
    >
      <Form method="post" id={form.id} onSubmit={form.onSubmit} className="admin-form admin-card" noValidate>
        {saved ? <FormSuccess>{t('admin-product-saved')}</FormSuccess> : null}
        {created ? <FormSuccess>{t('admin-product-created')}</FormSuccess> : null}
        <RequestAlert
          message={alert.message}
          errors={alert.errors}
          shownFields={FIELDS}
          // Someone else saved the product meanwhile: their version replaces what was typed here.
          onReload={
            refusal?.recordChanged
              ? () => navigate(`${location.pathname}${location.search}`, { replace: true })
              : undefined
          }
        />
        <input type="hidden" name="intent" value="product" />
        {product ? <input type="hidden" name="version" value={product.version} /> : null}
        <input type="hidden" name={fields.position.name} value={fields.position.initialValue ?? '0'} />

        <div className="admin-form__grid">
          <SelectField
            name={fields.project.name}
            label={t('admin-project')}
            defaultValue={fields.project.initialValue ?? ''}
            errors={projectErrors}
            required
          >
            <option value="">{t('admin-choose-project')}</option>
            {projects.map((project) => (
              <option key={project.id} value={project.id}>
                {name(project)}
              </option>
            ))}
          </SelectField>
          <FormField
            {...fieldProps(fields.link)}
            label={t('admin-link')}
            hint={t('admin-link-hint')}
            required
          />
          <FormField {...fieldProps(fields.name_ru)} label={t('admin-name-ru')} required />
          <FormField {...fieldProps(fields.name_en)} label={t('admin-name-en')} required />
        </div>

        <div className="form-field">
          <label htmlFor="category-to-add">{t('admin-categories')}</label>
          <div className="admin-inline">
            <select
              id="category-to-add"
              value={categoryToAdd}
              onChange={(event) => setCategoryToAdd(event.target.value)}
            >
              <option value="">{t('admin-choose-category')}</option>
              {categories
                .filter((category) => !chosenIds.includes(String(category.id)))
                .map((category) => (
                  <option key={category.id} value={category.id}>
                    {name(category)}
                  </option>
                ))}
            </select>
            <button type="button" className="button" onClick={addCategory} disabled={categoryToAdd === ''}>
              {t('admin-add-category')}
            </button>
          </div>
          {chosenCategories.length > 0 ? (
            <ul className="admin-chips" aria-label={t('admin-chosen-categories')}>
              {chosenCategories.map((item, index) => {
                const id = Number(item.value);
                const category = categories.find((entry) => entry.id === id) ?? {
                  name_ru: `#${id}`,
                  name_en: `#${id}`,
                };
                return (
                  <li key={item.key} className="admin-chip">
                    <input type="hidden" name={item.name} value={item.value ?? ''} />
                    {name(category)}
                    <button
                      type="button"
                      aria-label={t('admin-remove-category', { name: name(category) })}
                      onClick={() => form.remove({ name: fields.categories.name, index })}
                    >
                      ×
                    </button>
                  </li>
                );
              })}
            </ul>
          ) : (
            <p className="form-field__hint">{t('admin-no-categories')}</p>
          )}
          {fields.categories.errors ? (
            <p className="form-field__error">{fields.categories.errors.join(' ')}</p>
          ) : null}
        </div>

        <RichTextField
          label={t('admin-description-ru')}
          value={descRu.value ?? ''}
          onChange={descRu.change}
          errors={fields.desc_ru.errors}
        />
        <RichTextField
          label={t('admin-description-en')}
          value={descEn.value ?? ''}
          onChange={descEn.change}
          errors={fields.desc_en.errors}
        />

        <fieldset className="admin-fieldset">
          <legend>{t('admin-images')}</legend>
          {images.length === 0 ? <p className="form-field__hint">{t('admin-no-images')}</p> : null}
          <ol className="admin-images" aria-label={t('admin-images')}>
            {images.map((item, index) => {
              const number = index + 1;
              return (
                <li key={item.key} className="admin-image">
                  <input type="hidden" name={item.name} value={item.value ?? ''} />
                  <img src={imageUrl('products', item.value ?? '', 160)} alt="" width={80} height={80} />
                  <span className="admin-image__label">
                    {index === 0 ? t('admin-main-image') : t('admin-image-number', { number })}
                  </span>
                  <span className="admin-image__tools">
                    <button
                      type="button"
                      aria-label={t('admin-move-image-up', { number })}
                      disabled={index === 0}
                      onClick={() => form.reorder({ name: fields.images.name, from: index, to: index - 1 })}
                    >
                      ↑
                    </button>
                    <button
                      type="button"
                      aria-label={t('admin-move-image-down', { number })}
                      disabled={index === images.length - 1}
                      onClick={() => form.reorder({ name: fields.images.name, from: index, to: index + 1 })}
                    >
                      ↓
                    </button>
                    <button
                      type="button"
                      aria-label={t('admin-remove-image', { number })}
                      onClick={() => form.remove({ name: fields.images.name, index })}
                    >
                      ×
                    </button>
                  </span>
                </li>
              );
            })}
          </ol>
          <button
            type="button"
            className="button"
            onClick={() => setPicking(true)}
            disabled={images.length >= MAX_IMAGES}
          >
            {t('admin-add-images')}
          </button>
          {fields.images.errors ? (
            <p className="form-field__error">{fields.images.errors.join(' ')}</p>
          ) : null}
        </fieldset>

        <div className="admin-form__grid">
          <FormField
            {...fieldProps(fields.price)}
            type="number"
            min={0}
            step="0.01"
            label={t('admin-price-roubles')}
          />
          <FormField
            {...fieldProps(fields.sale)}
            type="number"
            min={0}
            step="0.01"
            label={t('admin-sale-roubles')}
            hint={t('admin-sale-hint')}
          />
          <FormField
            {...fieldProps(fields.weight)}
            type="number"
            min={0}
            step="1"
            label={t('admin-weight')}
          />
        </div>
        <ProductCustomsFieldset field={(field) => fieldProps(fields[field])} />

        <fieldset className="admin-fieldset">
          <legend>{t('admin-stock')}</legend>
          {hasOptions ? (
            <p className="form-field__hint">{t('admin-stock-per-variant')}</p>
          ) : (
            <>
              <div className="admin-form__grid">
                <FormField
                  name="quantity_seen"
                  label={t('admin-current-quantity')}
                  value={shownQuantity}
                  readOnly
                />
                <FormField
                  {...fieldProps(fields.quantity)}
                  type="number"
                  step="1"
                  label={
                    fields.quantityHardset.value === 'on' || !product
                      ? t('admin-quantity-set')
                      : t('admin-quantity-add')
                  }
                  disabled={!changeStock}
                  hint={product ? t('admin-quantity-hint') : t('admin-quantity-new-hint')}
                />
                <FormField
                  {...fieldProps(fields.stock_note)}
                  label={t('admin-stock-note')}
                  disabled={!changeStock}
                  maxLength={500}
                />
              </div>
              <CheckboxField
                name={fields.changeStock.name}
                label={t('admin-change-stock')}
                defaultChecked={fields.changeStock.initialValue === 'on'}
              />
              {product ? (
                <CheckboxField
                  name={fields.quantityHardset.name}
                  label={t('admin-quantity-hardset')}
                  defaultChecked={fields.quantityHardset.initialValue === 'on'}
                  disabled={!changeStock}
                  errors={fields.quantityHardset.errors}
                />
              ) : null}
            </>
          )}
        </fieldset>

        <fieldset className="admin-fieldset">
          <legend>{t('admin-release-and-limits')}</legend>
          <div className="admin-form__grid admin-form__grid--timing">
            {product?.drop ? (
              <p className="admin-product-drop">
                {/* The drop's name is a link: the text is split where its placeholder stands. */}
                {t('admin-product-in-drop', { time: format.zonedDateTime(product.release_at ?? '') })
                  .split('{drop}')
                  .flatMap((part, index) =>
                    index === 0
                      ? [part]
                      : [
                          <Link key="drop" to={`/admin/drops/${product.drop?.id}`}>
                            {product.drop ? name(product.drop) : ''}
                          </Link>,
                          part,
                        ],
                  )}
              </p>
            ) : (
              <FormField
                {...fieldProps(fields.release_at)}
                type="datetime-local"
                label={t('admin-product-release-at', { zone: localTimeZoneLabel(locale) })}
                hint={t('admin-product-release-hint')}
              />
            )}
            <FormField
              {...fieldProps(fields.per_customer_limit)}
              type="number"
              min={1}
              step="1"
              inputMode="numeric"
              label={t('admin-per-customer-limit')}
              hint={t('admin-product-limit-hint')}
            />
          </div>
        </fieldset>

        <fieldset className="admin-fieldset admin-checkboxes">
          <legend>{t('admin-showing')}</legend>
          <CheckboxField
            name={fields.visible.name}
            label={t('admin-visible')}
            defaultChecked={fields.visible.initialValue === 'on'}
          />
          <CheckboxField
            name={fields.weekSale.name}
            label={t('admin-week-sale')}
            defaultChecked={fields.weekSale.initialValue === 'on'}
          />
          <CheckboxField
            name={fields.envisioned.name}
            label={t('admin-envisioned')}
            hint={t('admin-envisioned-hint')}
            defaultChecked={fields.envisioned.initialValue === 'on'}
          />
        </fieldset>

        <div className="admin-actions admin-form__save">
          <BusyButton busy={saving} primary>
            {t('save')}
          </BusyButton>
          {product && mayDelete ? (
            <button type="button" className="button admin-button--danger" onClick={remove}>
              {t('admin-delete')}
            </button>
          ) : null}
        </div>
        {deleteError ? <FormAlert>{deleteError}</FormAlert> : null}
      </Form>

      {product && variants ? (
        // A save of the variants moves the product's version: the table starts afresh from it.
        <VariantEditor key={`${variants.id}:${variants.version}`} product={variants} images={imageNames} />
      ) : null}

      {product && variants ? (
        <StockHistory movements={movements} variants={variants.variants} variant={variant} />
      ) : null}

      <FilePicker
        open={picking}
        heading={t('admin-choose-images')}
        pickLabel={(count) => t('admin-add-selected-images', { count })}
        // Several pictures at once: one update of the list.
        onPick={(picked) =>
          form.update({
            name: fields.images.name,
            value: [...new Set([...imageNames, ...picked.map((file) => file.name)])].slice(0, MAX_IMAGES),
          })
        }
        onClose={() => setPicking(false)}
      />
    </AdminPage>
  );
}

export default function ProductPage({ loaderData, actionData }: Route.ComponentProps) {
  const { product } = loaderData;
  // The variants' save outlives the table that sent it (a save starts the table afresh).
  useFetcher<ProductAction>({ key: variantsSaveKey(product?.id ?? 0) });
  if (product === null && actionData?.intent === 'product' && actionData.ok) {
    return <Navigate to={`/admin/products/${actionData.answer.product.id}`} replace state={CREATED} />;
  }
  // A saved product's new version resets the form to what was stored.
  return (
    <ProductEditor
      key={product ? `${product.id}:${product.version}` : 'new'}
      {...loaderData}
      actionData={actionData}
    />
  );
}

export function ErrorBoundary() {
  return <AdminErrorBoundary />;
}
