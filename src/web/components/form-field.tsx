import {
  type InputHTMLAttributes,
  type ReactNode,
  type RefObject,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  useEffect,
  useId,
  useRef,
} from 'react';
import { useLocation, useNavigation } from 'react-router';
import type { FormFailure } from '../lib/forms.ts';

/**
 * Form controls of the account and feedback pages: a label, the control, and the field's error
 * texts under it (tied to the control with aria-describedby and aria-invalid).
 */

interface FieldProps {
  name: string;
  label: ReactNode;
  errors?: string[] | undefined;
  hint?: ReactNode;
}

function useFieldIds(errors: string[] | undefined, hint: ReactNode) {
  const id = useId();
  const invalid = errors !== undefined && errors.length > 0;
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  // An error replaces the hint (it says the same rule, more precisely).
  const describedBy = invalid ? errorId : hint ? hintId : undefined;
  return { id, errorId, hintId, invalid, describedBy };
}

function FieldNotes({
  errors,
  hint,
  errorId,
  hintId,
}: {
  errors: string[] | undefined;
  hint: ReactNode;
  errorId: string;
  hintId: string;
}) {
  return (
    <>
      {hint && !(errors && errors.length > 0) ? (
        <p id={hintId} className="form-field__hint">
          {hint}
        </p>
      ) : null}
      {errors && errors.length > 0 ? (
        <p id={errorId} className="form-field__error">
          {errors.join(' ')}
        </p>
      ) : null}
    </>
  );
}

export function FormField({
  name,
  label,
  errors,
  hint,
  wide,
  type = 'text',
  ...input
}: FieldProps & { wide?: boolean } & Omit<InputHTMLAttributes<HTMLInputElement>, 'name' | 'id'>) {
  const ids = useFieldIds(errors, hint);
  return (
    <div className={wide ? 'form-field form-grid__wide' : 'form-field'}>
      <label htmlFor={ids.id}>{label}</label>
      <input
        {...input}
        id={ids.id}
        name={name}
        type={type}
        aria-invalid={ids.invalid || undefined}
        aria-describedby={ids.describedBy}
      />
      <FieldNotes errors={errors} hint={hint} errorId={ids.errorId} hintId={ids.hintId} />
    </div>
  );
}

export function TextAreaField({
  name,
  label,
  errors,
  hint,
  ...textarea
}: FieldProps & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'name' | 'id'>) {
  const ids = useFieldIds(errors, hint);
  return (
    <div className="form-field">
      <label htmlFor={ids.id}>{label}</label>
      <textarea
        {...textarea}
        id={ids.id}
        name={name}
        aria-invalid={ids.invalid || undefined}
        aria-describedby={ids.describedBy}
      />
      <FieldNotes errors={errors} hint={hint} errorId={ids.errorId} hintId={ids.hintId} />
    </div>
  );
}

export function SelectField({
  name,
  label,
  errors,
  hint,
  children,
  ...select
}: FieldProps & Omit<SelectHTMLAttributes<HTMLSelectElement>, 'name' | 'id'>) {
  const ids = useFieldIds(errors, hint);
  return (
    <div className="form-field">
      <label htmlFor={ids.id}>{label}</label>
      <select
        {...select}
        id={ids.id}
        name={name}
        aria-invalid={ids.invalid || undefined}
        aria-describedby={ids.describedBy}
      >
        {children}
      </select>
      <FieldNotes errors={errors} hint={hint} errorId={ids.errorId} hintId={ids.hintId} />
    </div>
  );
}

/** A checkbox with its label text (which may hold a link) to the right. */
export function CheckboxField({
  name,
  label,
  errors,
  hint,
  ...input
}: FieldProps & Omit<InputHTMLAttributes<HTMLInputElement>, 'name' | 'id' | 'type'>) {
  const ids = useFieldIds(errors, hint);
  return (
    <div className="form-field form-field--checkbox">
      <div className="checkbox-row">
        <input
          {...input}
          id={ids.id}
          name={name}
          type="checkbox"
          aria-invalid={ids.invalid || undefined}
          aria-describedby={ids.describedBy}
        />
        <label htmlFor={ids.id}>{label}</label>
      </div>
      <FieldNotes errors={errors} hint={hint} errorId={ids.errorId} hintId={ids.hintId} />
    </div>
  );
}

/**
 * Scrolls a message that appeared after a submit into view: with JavaScript the page stays where it
 * was, and on a phone the visitor is at the button, far below the message.
 */
function useRevealOnMount() {
  const ref = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    ref.current?.scrollIntoView({ block: 'nearest' });
  }, []);
  return ref;
}

/** The request's own error (wrong password, expired link, too many attempts), above the form. */
export function FormAlert({ children }: { children: ReactNode }) {
  if (!children) return null;
  return <Alert>{children}</Alert>;
}

function Alert({ children }: { children: ReactNode }) {
  const ref = useRevealOnMount();
  return (
    <p ref={ref} className="form-alert" role="alert">
      {children}
    </p>
  );
}

/** A confirmation box (profile saved, message sent). */
export function FormSuccess({ children }: { children: ReactNode }) {
  const ref = useRevealOnMount();
  return (
    <p ref={ref} className="form-success" role="status">
      {children}
    </p>
  );
}

/**
 * True while this page's form is being sent and until the page it leads to has loaded. Other
 * forms (the language switch, sign-out) do not count.
 */
export function useFormPending(): boolean {
  const navigation = useNavigation();
  const { pathname } = useLocation();
  if (navigation.state === 'idle' || !navigation.formMethod || navigation.formMethod.toUpperCase() === 'GET')
    return false;
  const target = new URL(navigation.formAction ?? pathname, 'http://localhost').pathname;
  return target.replace(/\/$/, '') === pathname.replace(/\/$/, '');
}

/**
 * The form's submit button: disabled with a spinner while the form is being sent, so further
 * submits (clicks, Enter in a field) are ignored until the answer arrives.
 */
export function SubmitButton({ children }: { children: ReactNode }) {
  const pending = useFormPending();
  return (
    <button
      type="submit"
      className="button button--primary submit-button"
      disabled={pending}
      aria-busy={pending}
    >
      {pending ? <span className="spinner" aria-hidden="true" /> : null}
      {children}
    </button>
  );
}

/** After a refused submit, moves the focus to the first field in error (the alert is announced by itself). */
export function useFocusFirstError(
  form: RefObject<HTMLFormElement | null>,
  failure: FormFailure | undefined,
) {
  useEffect(() => {
    if (!failure) return;
    form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [form, failure]);
}
