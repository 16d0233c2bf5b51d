import { useRef } from 'react';
import { Form } from 'react-router';
import type { ProductDetail } from '../../contract/catalog.ts';
import { useShop } from '../lib/shop.ts';
import { type Choice, optionParam, valueInStock } from '../lib/variant-choice.ts';

/** The id of an option's first value, where focus goes when add to cart needs that option. */
export const optionFieldId = (optionId: number) => `option-${optionId}`;

/**
 * The product's options as radio groups (arrow keys move within one, as every radio group does):
 * sizes and plain values as buttons, colours with swatches as swatches. A value that no variant in
 * stock has, given the other choices, is crossed out but stays choosable. Without JavaScript the
 * group is a GET form: choosing and sending it puts the choice in the address, as a click does.
 */
export function OptionPicker({
  product,
  choice,
  onChoose,
}: {
  product: Pick<ProductDetail, 'options' | 'variants' | 'sizeGuide'>;
  choice: Choice;
  onChoose: (optionId: number, valueId: number) => void;
}) {
  const { t } = useShop();
  return (
    <Form method="get" replace preventScrollReset className="option-picker">
      {product.options.map((option, optionIndex) => {
        const chosen = option.values.find((value) => value.id === choice.get(option.id));
        const swatches = option.kind === 'colour' && option.values.some((value) => value.swatch);
        return (
          <fieldset key={option.id} className="option-picker__option">
            <legend>
              {option.name}
              {chosen ? <span className="option-picker__chosen">: {chosen.value}</span> : null}
            </legend>
            <div className={`option-picker__values ${swatches ? 'option-picker__values--swatches' : ''}`}>
              {option.values.map((value, valueIndex) => {
                const soldOut = !valueInStock(product, choice, optionIndex, value.id);
                return (
                  <label
                    key={value.id}
                    className={`option-value ${soldOut ? 'option-value--sold-out' : ''} ${
                      swatches ? 'option-value--swatch' : ''
                    }`}
                    title={swatches ? value.value : undefined}
                  >
                    <input
                      type="radio"
                      name={optionParam(option)}
                      value={value.key}
                      id={valueIndex === 0 ? optionFieldId(option.id) : undefined}
                      checked={chosen?.id === value.id}
                      onChange={() => onChoose(option.id, value.id)}
                    />
                    {swatches ? (
                      <>
                        <span
                          className="option-value__swatch"
                          style={{ background: value.swatch ?? undefined }}
                        />
                        <span className="visually-hidden">{value.value}</span>
                      </>
                    ) : (
                      <span className="option-value__text">{value.value}</span>
                    )}
                    {soldOut ? <span className="visually-hidden">, {t('sold-out')}</span> : null}
                  </label>
                );
              })}
            </div>
            {option.kind === 'size' && product.sizeGuide ? <SizeGuide guide={product.sizeGuide} /> : null}
          </fieldset>
        );
      })}
      <noscript>
        <button type="submit" className="button">
          {t('choose-options')}
        </button>
      </noscript>
    </Form>
  );
}

/** The category's size table in a native modal dialog (Escape and the close button close it). */
function SizeGuide({ guide }: { guide: string }) {
  const { t } = useShop();
  const dialog = useRef<HTMLDialogElement>(null);
  return (
    <>
      <button
        type="button"
        className="link-button option-picker__guide"
        onClick={() => dialog.current?.showModal()}
      >
        {t('size-guide')}
      </button>
      <dialog ref={dialog} className="size-guide" aria-labelledby="size-guide-heading">
        <h2 id="size-guide-heading">{t('size-guide')}</h2>
        {/* Sanitized on write and on read (src/server/catalog/service.ts). */}
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: staff HTML, sanitized */}
        <div className="size-guide__table" dangerouslySetInnerHTML={{ __html: guide }} />
        <button type="button" className="button" onClick={() => dialog.current?.close()}>
          {t('close')}
        </button>
      </dialog>
    </>
  );
}
