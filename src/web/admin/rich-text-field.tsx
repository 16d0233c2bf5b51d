import { lazy, Suspense, useId } from 'react';
import { useHydrated } from '../lib/enhanced-forms.ts';

/** TipTap is big: fetched only when an editor is on screen; a plain textarea stands in meanwhile. */
const RichTextEditor = lazy(() => import('./rich-text-editor.tsx'));

/** A labelled rich text field of the back office: a product's description, a category's size guide. */
export function RichTextField({
  label,
  value,
  onChange,
  errors,
}: {
  label: string;
  value: string;
  onChange: (html: string) => void;
  errors?: string[] | undefined;
}) {
  const id = useId();
  const hydrated = useHydrated();
  // The plain field: what the server renders (it never waits for the editor) and what shows
  // while the editor's chunk loads.
  const textarea = (
    <textarea
      id={id}
      aria-labelledby={`${id}-label`}
      value={value}
      onChange={(event) => onChange(event.target.value)}
    />
  );
  return (
    <div className="form-field form-grid__wide">
      <span id={`${id}-label`} className="admin-label">
        {label}
      </span>
      {hydrated ? (
        <Suspense fallback={textarea}>
          <RichTextEditor labelId={`${id}-label`} value={value} onChange={onChange} />
        </Suspense>
      ) : (
        textarea
      )}
      {errors && errors.length > 0 ? <p className="form-field__error">{errors.join(' ')}</p> : null}
    </div>
  );
}
