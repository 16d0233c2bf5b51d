import { data } from 'react-router';
import type { z } from 'zod';
import { translateError, translateErrors } from '../../contract/error-messages.ts';
import type { Locale } from '../../contract/locale.ts';

/**
 * The server side of the account and feedback forms: validate the posted fields with the contract's
 * zod schema, and turn a refused request into texts the page shows above the form and under each
 * field. The same schemas check the JSON API, so a form and an API call never disagree.
 */

/** Messages per field name; keys of src/contract/error-messages.ts until translated. */
export type FieldErrors = Record<string, string[]>;

export type ParsedForm<T> = { ok: true; data: T } | { ok: false; errors: FieldErrors };

/** What a failed form action answers: translated texts, and the fields to fill again without JavaScript. */
export interface FormFailure {
  errors: FieldErrors;
  /** The request's own message, shown above the form (role="alert"). */
  formError?: string;
  /** The untranslated key of `formError`, for a page that offers a way out of that error. */
  errorKey?: string;
  values?: Record<string, string>;
}

/** Fields never sent back to the page: a password is typed again rather than echoed in the HTML. */
const SECRET_FIELDS = new Set(['password', 'password_confirmation']);

/**
 * The posted form. A body the browser could not have sent (a multipart body cut short, a boundary
 * that never comes) is the sender's fault: 400, not a server error.
 */
export async function postedForm(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    throw new Response('The form could not be read', { status: 400 });
  }
}

/** The text fields of a posted form (files are ignored). */
export function formFields(formData: FormData): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of formData) {
    if (typeof value === 'string') fields[name] = value;
  }
  return fields;
}

/** The posted values worth showing again after a refusal (no passwords). */
export function formValues(formData: FormData): Record<string, string> {
  return Object.fromEntries(
    Object.entries(formFields(formData)).filter(([name]) => !SECRET_FIELDS.has(name)),
  );
}

export function parseForm<Schema extends z.ZodType>(
  schema: Schema,
  formData: FormData,
): ParsedForm<z.output<Schema>> {
  const result = schema.safeParse(formFields(formData));
  if (result.success) return { ok: true, data: result.data };
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path.length > 0 ? String(issue.path[0]) : 'form';
    const messages = errors[field] ?? [];
    if (!messages.includes(issue.message)) errors[field] = [...messages, issue.message];
  }
  return { ok: false, errors };
}

/** The answer to a form that did not pass its schema: 422 with the field texts in the visitor's language. */
export function invalidForm(errors: FieldErrors, locale: Locale, formData: FormData) {
  const failure: FormFailure = { errors: translateErrors(locale, errors), values: formValues(formData) };
  return data(failure, { status: 422 });
}

interface ClientError {
  status: number;
  message?: unknown;
  errors?: unknown;
  /** A 429's wait, sent as Retry-After. */
  retryAfterSeconds?: unknown;
}

/**
 * A refusal by the domain (status 400..499 with field errors or a message key). The check is
 * structural: the server's error classes live in another module graph than the web build.
 */
function isClientError(error: unknown): error is ClientError {
  if (typeof error !== 'object' || error === null) return false;
  const { status } = error as { status?: unknown };
  return (
    typeof status === 'number' && status >= 400 && status < 500 && ('errors' in error || 'message' in error)
  );
}

function fieldErrorsOf(value: unknown): FieldErrors {
  if (typeof value !== 'object' || value === null) return {};
  return Object.fromEntries(
    Object.entries(value).map(([field, messages]) => [
      field,
      (Array.isArray(messages) ? messages : [messages]).map(String),
    ]),
  );
}

/**
 * Turns a refused request into the page's error texts with the same status (a 429 with its
 * Retry-After); anything else (a server fault) is rethrown to the error boundary. The request's message goes above the form; a
 * field error saying the same thing is not repeated under the field.
 */
export function actionError(error: unknown, locale: Locale, formData?: FormData) {
  if (!isClientError(error)) throw error;
  const message = typeof error.message === 'string' && error.message !== '' ? error.message : undefined;
  const fields = Object.entries(fieldErrorsOf(error.errors))
    .map(([field, messages]) => [field, messages.filter((text) => text !== message)] as const)
    .filter(([, messages]) => messages.length > 0);
  const failure: FormFailure = {
    errors: translateErrors(locale, Object.fromEntries(fields)),
    ...(message ? { formError: translateError(locale, message), errorKey: message } : {}),
    ...(formData ? { values: formValues(formData) } : {}),
  };
  const { retryAfterSeconds } = error;
  return data(failure, {
    status: error.status,
    ...(typeof retryAfterSeconds === 'number'
      ? { headers: { 'retry-after': String(retryAfterSeconds) } }
      : {}),
  });
}

/** The failure part of an action's answer, if the last submit failed. */
export function formFailure(answer: unknown): FormFailure | undefined {
  return typeof answer === 'object' && answer !== null && 'errors' in answer
    ? (answer as FormFailure)
    : undefined;
}
