import { type FormEvent, useState } from 'react';
import { Link, useLocation, useNavigate, useRevalidator } from 'react-router';
import { imageUrl } from '../../../contract/images.ts';
import { AdminApiError, adminApi, type FieldErrors, loadAdmin } from '../../admin/api.ts';
import {
  PRODUCT_CUSTOMS_FIELDS,
  type ProductCustomsDraft,
  ProductCustomsFieldset,
  productCustomsDraft,
} from '../../admin/customs-fields.tsx';
import { FilePicker } from '../../admin/file-picker.tsx';
import { localInputValue, localTimeZoneLabel, momentOfLocalInput } from '../../admin/local-time.ts';
import { RichTextField } from '../../admin/rich-text-field.tsx';
import { StockHistory } from '../../admin/stock-history.tsx';
import { useAdminShop } from '../../admin/text.ts';
import type {
  AdminCategory,
  AdminProduct,
  AdminProductVariants,
  AdminProject,
  ManagedFile,
  StockMovement,
} from '../../admin/types.ts';
import {
  AdminErrorBoundary,
  AdminLoading,
  AdminPage,
  BusyButton,
  RequestAlert,
  useAdminFormat,
  useAdminRequest,
  useMayDelete,
} from '../../admin/ui.tsx';
import { useUnsavedChanges } from '../../admin/unsaved-changes.tsx';
import { VariantEditor } from '../../admin/variant-editor.tsx';
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
  const variant = new URL(request.url).searchParams.get('variant') ?? '';
  const [{ projects }, { categories }, product, variants, movements] = await Promise.all([
    loadAdmin<{ projects: AdminProject[] }>('/projects', request),
    loadAdmin<{ categories: AdminCategory[] }>('/categories', request),
    id === undefined
      ? Promise.resolve(null)
      : loadAdmin<{ product: AdminProduct }>(`/products/${encodeURIComponent(id)}`, request).then(
          (answer) => answer.product,
        ),
    id === undefined
      ? Promise.resolve(null)
      : loadAdmin<{ product: AdminProductVariants }>(
          `/products/${encodeURIComponent(id)}/variants`,
          request,
        ).then((answer) => answer.product),
    id === undefined
      ? Promise.resolve([])
      : loadAdmin<{ movements: StockMovement[] }>(
          `/products/${encodeURIComponent(id)}/stock-movements`,
          request,
          { variant: variant || undefined },
        ).then((answer) => answer.movements),
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

export function HydrateFallback() {
  return <AdminLoading />;
}

const MAX_IMAGES = 12;

interface Draft extends ProductCustomsDraft {
  project: string;
  categories: number[];
  name_ru: string;
  name_en: string;
  desc_ru: string;
  desc_en: string;
  link: string;
  images: string[];
  price: string;
  sale: string;
  weight: string;
  changeStock: boolean;
  quantity: string;
  quantityHardset: boolean;
  /** Why the stock changes, kept with the movement (ADR 0056). */
  stock_note: string;
  visible: boolean;
  weekSale: boolean;
  envisioned: boolean;
  position: number;
  /** The product's own release time in the manager's zone, as the datetime-local input holds it. */
  release_at: string;
  per_customer_limit: string;
}

const draftOf = (product: AdminProduct | null): Draft => ({
  project: product ? String(product.project) : '',
  categories: product?.categories ?? [],
  name_ru: product?.name_ru ?? '',
  name_en: product?.name_en ?? '',
  desc_ru: product?.desc_ru ?? '',
  desc_en: product?.desc_en ?? '',
  link: product?.link ?? '',
  images: product?.images ?? [],
  price: product ? String(product.price) : '',
  sale: product?.sale === null || product?.sale === undefined ? '' : String(product.sale),
  weight: product ? String(product.weight) : '',
  changeStock: false,
  quantity: '',
  quantityHardset: false,
  stock_note: '',
  visible: product?.visible ?? true,
  weekSale: product?.weekSale ?? false,
  envisioned: product?.envisioned ?? false,
  position: product?.position ?? 0,
  release_at: localInputValue(product?.release_at),
  per_customer_limit:
    product?.per_customer_limit === null || product === null ? '' : String(product.per_customer_limit),
  ...productCustomsDraft(product),
});

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

function ProductEditor({
  product,
  variants,
  projects,
  categories,
  movements,
  variant,
}: {
  product: AdminProduct | null;
  variants: AdminProductVariants | null;
  projects: AdminProject[];
  categories: AdminCategory[];
  movements: StockMovement[];
  variant: number | undefined;
}) {
  const revalidator = useRevalidator();
  const mayDelete = useMayDelete();
  const { t, locale } = useAdminShop();
  const format = useAdminFormat();
  const navigate = useNavigate();
  const location = useLocation();
  const request = useAdminRequest();
  const [saved, setSaved] = useState(product);
  const [savedVariants, setSavedVariants] = useState(variants);
  const hasOptions = (savedVariants?.options.length ?? 0) > 0;
  const [draft, setDraft] = useState(() => draftOf(product));
  const [localErrors, setLocalErrors] = useState<FieldErrors>({});
  const [categoryToAdd, setCategoryToAdd] = useState('');
  const [picking, setPicking] = useState(false);
  const [deleteError, setDeleteError] = useState<string | undefined>();
  const unsaved = useUnsavedChanges(JSON.stringify(draft) !== JSON.stringify(draftOf(saved)));
  const errors = { ...request.errors, ...localErrors };
  // After a 409 stock-moved the form shows the figure now, which the next count is made over.
  const moved = request.answer?.current;
  const shownQuantity = typeof moved === 'number' ? moved : (saved?.currentQuantity ?? 0);
  const created = (location.state as { created?: boolean } | null)?.created === true && !request.done;
  const name = (entry: { name_ru: string; name_en: string }) =>
    locale === 'ru' ? entry.name_ru : entry.name_en;

  const set = <Field extends keyof Draft>(field: Field, value: Draft[Field]) =>
    setDraft((current) => ({ ...current, [field]: value }));
  const text = (
    field:
      | 'name_ru'
      | 'name_en'
      | 'link'
      | 'price'
      | 'sale'
      | 'weight'
      | 'quantity'
      | 'stock_note'
      | 'release_at'
      | 'per_customer_limit',
  ) => ({
    name: field,
    value: draft[field],
    onChange: (event: { target: { value: string } }) => set(field, event.target.value),
    errors: errors[field],
  });

  const addCategory = () => {
    const id = Number(categoryToAdd);
    if (id > 0 && !draft.categories.includes(id)) set('categories', [...draft.categories, id]);
    setCategoryToAdd('');
  };

  const swap = (index: number, other: number) =>
    setDraft((current) => {
      const images = [...current.images];
      const [first, second] = [images[index], images[other]];
      if (first === undefined || second === undefined) return current;
      images[index] = second;
      images[other] = first;
      return { ...current, images };
    });

  const addPicked = (picked: ManagedFile[]) =>
    set('images', [...new Set([...draft.images, ...picked.map((file) => file.name)])].slice(0, MAX_IMAGES));

  const save = async (event: FormEvent) => {
    event.preventDefault();
    // The API would call a missing project "not found"; the form says what to do. The other
    // fields are still checked by the API, so every problem shows at once.
    setLocalErrors(draft.project === '' ? { project: [t('admin-project-required')] } : {});
    const { changeStock, quantity, stock_note, release_at, ...fields } = draft;
    const body = {
      ...fields,
      // A count goes with the figure the form shows: if units moved since, the API refuses it.
      ...(changeStock ? { quantity, stock_note, quantity_seen: shownQuantity } : {}),
      // A product in a drop goes on sale with it: its own time is not the form's to change.
      ...(saved?.drop ? {} : { release_at: momentOfLocalInput(release_at) }),
    };
    const answer = await request.run(
      () =>
        saved
          ? adminApi<{ product: AdminProduct }>('PATCH', `/products/${saved.id}`, {
              json: { ...body, version: saved.version },
            })
          : adminApi<{ product: AdminProduct }>('POST', '/products', { json: body }),
      { success: t('admin-product-saved'), reload: false },
    );
    if (!answer) return;
    if (!saved) {
      unsaved.saved();
      navigate(`/admin/products/${answer.product.id}`, { replace: true, state: { created: true } });
      return;
    }
    setSaved(answer.product);
    setDraft(draftOf(answer.product));
  };

  /** Someone else saved the product meanwhile: their version replaces what was typed here. */
  const reload = async () => {
    if (!saved) return;
    const answer = await request.run(
      () => adminApi<{ product: AdminProduct }>('GET', `/products/${saved.id}`),
      { reload: false },
    );
    if (!answer) return;
    setSaved(answer.product);
    setDraft(draftOf(answer.product));
  };

  const remove = async () => {
    if (!saved || !window.confirm(t('admin-confirm-delete', { name: name(saved) }))) return;
    try {
      await adminApi('DELETE', `/products/${saved.id}`);
      unsaved.saved();
      navigate('/admin/products');
    } catch (error) {
      setDeleteError(error instanceof AdminApiError ? error.message : t('admin-request-failed'));
    }
  };

  const chosenCategories = draft.categories.map(
    (id) => categories.find((category) => category.id === id) ?? { id, name_ru: `#${id}`, name_en: `#${id}` },
  );

  return (
    <AdminPage
      title={saved ? t('admin-edit-product', { name: name(saved) }) : t('admin-new-product')}
      actions={
        <>
          {saved ? (
            <a href={`/product/${saved.link}`} className="button" target="_blank" rel="noreferrer">
              {t('admin-view-in-shop')}
            </a>
          ) : null}
          <Link to="/admin/products" className="button">
            {t('admin-back-to-products')}
          </Link>
        </>
      }
    >
      <form className="admin-form admin-card" onSubmit={save} noValidate>
        {request.done ? <FormSuccess>{request.done}</FormSuccess> : null}
        {created ? <FormSuccess>{t('admin-product-created')}</FormSuccess> : null}
        <RequestAlert
          message={request.message}
          errors={errors}
          shownFields={FIELDS}
          onReload={request.recordChanged ? () => void reload() : undefined}
        />

        <div className="admin-form__grid">
          <SelectField
            name="project"
            label={t('admin-project')}
            value={draft.project}
            onChange={(event) => set('project', event.target.value)}
            errors={errors.project}
            required
          >
            <option value="">{t('admin-choose-project')}</option>
            {projects.map((project) => (
              <option key={project.id} value={project.id}>
                {name(project)}
              </option>
            ))}
          </SelectField>
          <FormField {...text('link')} label={t('admin-link')} hint={t('admin-link-hint')} required />
          <FormField {...text('name_ru')} label={t('admin-name-ru')} required />
          <FormField {...text('name_en')} label={t('admin-name-en')} required />
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
                .filter((category) => !draft.categories.includes(category.id))
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
              {chosenCategories.map((category) => (
                <li key={category.id} className="admin-chip">
                  {name(category)}
                  <button
                    type="button"
                    aria-label={t('admin-remove-category', { name: name(category) })}
                    onClick={() =>
                      set(
                        'categories',
                        draft.categories.filter((id) => id !== category.id),
                      )
                    }
                  >
                    ×
                  </button>
                </li>
              ))}
            </ul>
          ) : (
            <p className="form-field__hint">{t('admin-no-categories')}</p>
          )}
          {errors.categories ? <p className="form-field__error">{errors.categories.join(' ')}</p> : null}
        </div>

        <RichTextField
          label={t('admin-description-ru')}
          value={draft.desc_ru}
          onChange={(html) => set('desc_ru', html)}
          errors={errors.desc_ru}
        />
        <RichTextField
          label={t('admin-description-en')}
          value={draft.desc_en}
          onChange={(html) => set('desc_en', html)}
          errors={errors.desc_en}
        />

        <fieldset className="admin-fieldset">
          <legend>{t('admin-images')}</legend>
          {draft.images.length === 0 ? <p className="form-field__hint">{t('admin-no-images')}</p> : null}
          <ol className="admin-images" aria-label={t('admin-images')}>
            {draft.images.map((file, index) => {
              const number = index + 1;
              return (
                <li key={file} className="admin-image">
                  <img src={imageUrl('products', file, 160)} alt="" width={80} height={80} />
                  <span className="admin-image__label">
                    {index === 0 ? t('admin-main-image') : t('admin-image-number', { number })}
                  </span>
                  <span className="admin-image__tools">
                    <button
                      type="button"
                      aria-label={t('admin-move-image-up', { number })}
                      disabled={index === 0}
                      onClick={() => swap(index, index - 1)}
                    >
                      ↑
                    </button>
                    <button
                      type="button"
                      aria-label={t('admin-move-image-down', { number })}
                      disabled={index === draft.images.length - 1}
                      onClick={() => swap(index, index + 1)}
                    >
                      ↓
                    </button>
                    <button
                      type="button"
                      aria-label={t('admin-remove-image', { number })}
                      onClick={() =>
                        set(
                          'images',
                          draft.images.filter((_, other) => other !== index),
                        )
                      }
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
            disabled={draft.images.length >= MAX_IMAGES}
          >
            {t('admin-add-images')}
          </button>
          {errors.images ? <p className="form-field__error">{errors.images.join(' ')}</p> : null}
        </fieldset>

        <div className="admin-form__grid">
          <FormField {...text('price')} type="number" min={0} step="0.01" label={t('admin-price-roubles')} />
          <FormField
            {...text('sale')}
            type="number"
            min={0}
            step="0.01"
            label={t('admin-sale-roubles')}
            hint={t('admin-sale-hint')}
          />
          <FormField {...text('weight')} type="number" min={0} step="1" label={t('admin-weight')} />
        </div>
        <ProductCustomsFieldset draft={draft} errors={errors} onChange={set} />

        <fieldset className="admin-fieldset">
          <legend>{t('admin-stock')}</legend>
          {hasOptions ? (
            <p className="form-field__hint">{t('admin-stock-per-variant')}</p>
          ) : (
            <>
              <div className="admin-form__grid">
                <FormField
                  name="currentQuantity"
                  label={t('admin-current-quantity')}
                  value={shownQuantity}
                  readOnly
                />
                <FormField
                  {...text('quantity')}
                  type="number"
                  step="1"
                  label={draft.quantityHardset || !saved ? t('admin-quantity-set') : t('admin-quantity-add')}
                  disabled={!draft.changeStock}
                  hint={saved ? t('admin-quantity-hint') : t('admin-quantity-new-hint')}
                />
                <FormField
                  {...text('stock_note')}
                  label={t('admin-stock-note')}
                  disabled={!draft.changeStock}
                  maxLength={500}
                />
              </div>
              <CheckboxField
                name="changeStock"
                label={t('admin-change-stock')}
                checked={draft.changeStock}
                onChange={(event) => set('changeStock', event.target.checked)}
              />
              {saved ? (
                <CheckboxField
                  name="quantityHardset"
                  label={t('admin-quantity-hardset')}
                  checked={draft.quantityHardset}
                  disabled={!draft.changeStock}
                  onChange={(event) => set('quantityHardset', event.target.checked)}
                  errors={errors.quantityHardset}
                />
              ) : null}
            </>
          )}
        </fieldset>

        <fieldset className="admin-fieldset">
          <legend>{t('admin-release-and-limits')}</legend>
          <div className="admin-form__grid admin-form__grid--timing">
            {saved?.drop ? (
              <p className="admin-product-drop">
                {/* The drop's name is a link: the text is split where its placeholder stands. */}
                {t('admin-product-in-drop', { time: format.zonedDateTime(saved.release_at ?? '') })
                  .split('{drop}')
                  .flatMap((part, index) =>
                    index === 0
                      ? [part]
                      : [
                          <Link key="drop" to={`/admin/drops/${saved.drop?.id}`}>
                            {saved.drop ? name(saved.drop) : ''}
                          </Link>,
                          part,
                        ],
                  )}
              </p>
            ) : (
              <FormField
                {...text('release_at')}
                type="datetime-local"
                label={t('admin-product-release-at', { zone: localTimeZoneLabel(locale) })}
                hint={t('admin-product-release-hint')}
              />
            )}
            <FormField
              {...text('per_customer_limit')}
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
            name="visible"
            label={t('admin-visible')}
            checked={draft.visible}
            onChange={(event) => set('visible', event.target.checked)}
          />
          <CheckboxField
            name="weekSale"
            label={t('admin-week-sale')}
            checked={draft.weekSale}
            onChange={(event) => set('weekSale', event.target.checked)}
          />
          <CheckboxField
            name="envisioned"
            label={t('admin-envisioned')}
            hint={t('admin-envisioned-hint')}
            checked={draft.envisioned}
            onChange={(event) => set('envisioned', event.target.checked)}
          />
        </fieldset>

        <div className="admin-actions admin-form__save">
          <BusyButton busy={request.busy} primary>
            {t('save')}
          </BusyButton>
          {saved && mayDelete ? (
            <button type="button" className="button admin-button--danger" onClick={remove}>
              {t('admin-delete')}
            </button>
          ) : null}
        </div>
        {deleteError ? <FormAlert>{deleteError}</FormAlert> : null}
      </form>

      {saved && savedVariants ? (
        <VariantEditor
          key={savedVariants.id}
          product={savedVariants}
          images={draft.images}
          version={saved.version}
          onSaved={(next) => {
            setSavedVariants(next);
            setSaved({
              ...saved,
              version: next.version,
              currentQuantity: next.variants.reduce((sum, row) => sum + row.quantity, 0),
            });
            // The stock movements below follow the save.
            void revalidator.revalidate();
          }}
        />
      ) : null}

      {saved && savedVariants ? (
        <StockHistory movements={movements} variants={savedVariants.variants} variant={variant} />
      ) : null}

      <FilePicker
        open={picking}
        heading={t('admin-choose-images')}
        pickLabel={(count) => t('admin-add-selected-images', { count })}
        onPick={addPicked}
        onClose={() => setPicking(false)}
      />
    </AdminPage>
  );
}

export default function ProductPage({ loaderData }: Route.ComponentProps) {
  const { product, variants, projects, categories, movements, variant } = loaderData;
  return (
    <ProductEditor
      key={product?.id ?? 'new'}
      product={product}
      variants={variants}
      projects={projects}
      categories={categories}
      movements={movements}
      variant={variant}
    />
  );
}

export function ErrorBoundary() {
  return <AdminErrorBoundary />;
}
