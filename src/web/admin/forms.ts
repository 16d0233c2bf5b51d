import {
  type DefaultValue,
  type FieldMetadata,
  type Submission,
  type SubmissionResult,
  useForm,
} from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { translateError } from '../../contract/error-messages.ts';
import { z } from '../../contract/zod.ts';
import { AdminApiError, adminApi, pageLocale } from './api.ts';

/**
 * How a back-office form works (ADR 0073). The route's `clientAction` reads the posted form, checks
 * it with the contract's zod schema (the one the API checks it with) through Conform, sends it to
 * `/api/admin/*` and answers what the page shows: Conform's result (field texts under the fields,
 * the message above the form) and, on success, the API's answer parsed with a schema. The page's
 * `useAdminForm` runs the same check before the form is sent, and takes its pending state from the
 * router (`useNavigation`, `fetcher.state`), its data from the loader, never from a copy in state.
 */

/** Field texts and the message above the form, as Conform keeps them between submits. */
export type AdminFormResult = SubmissionResult<string[]>;

/** What a refused write said beyond its texts: the status and the API's whole answer. */
export interface AdminRefusal {
  status: number;
  /** The record was saved by someone else since the page loaded it (409 with a `version` text). */
  recordChanged: boolean;
  answer: Record<string, unknown>;
}

export type AdminFormOutcome<Answer> =
  | { ok: true; answer: Answer; result: AdminFormResult }
  | { ok: false; result: AdminFormResult; refusal?: AdminRefusal };

/** A form's fields as Conform reads them: text, or lists of text for repeated names. */
export type FormFields = Record<string, unknown>;

interface FormChecks<Schema extends z.ZodType> {
  /** The contract's schema of the API call the form makes. */
  schema: Schema;
  /**
   * What the API reads, from what the fields hold: a local time as a moment, a clear checkbox as
   * '0' (see `withCheckboxes`). Applied before the check, in the page and in the action.
   */
  prepare?: (fields: FormFields) => FormFields;
}

const MESSAGE = '';

/**
 * The posted form checked with the schema, its texts in the page's language; a refusal carries the
 * message the API gives a form that does not pass its schema, so the page reads the same either way.
 */
export function parseAdminForm<Schema extends z.ZodType>(formData: FormData, checks: FormChecks<Schema>) {
  const locale = pageLocale();
  const { prepare } = checks;
  const schema: z.ZodType<unknown, unknown> = prepare
    ? z.preprocess((fields) => prepare(fields as FormFields), checks.schema)
    : checks.schema;
  const submission = parseWithZod(formData, {
    schema,
    // The contract reads form text itself ('' clears a limit, '1' ticks a box).
    disableAutoCoercion: true,
    formatError: (issues: z.core.$ZodIssue[]): string[] => [
      ...new Set(issues.map((issue) => translateError(locale, issue.message))),
    ],
  }) as Submission<FormFields, string[], z.output<Schema>>;
  if (submission.status === 'error' && submission.error && !submission.error[MESSAGE]) {
    submission.error[MESSAGE] = [translateError(locale, 'request-invalid')];
  }
  return submission;
}

/** A checkbox sends nothing when clear, and the contract then takes its default: '0' says it is clear. */
export const withCheckboxes = (fields: FormFields, names: readonly string[]): FormFields => ({
  ...fields,
  ...Object.fromEntries(names.map((name) => [name, fields[name] === undefined ? '0' : '1'])),
});

/** A call to `/api/admin/*` whose answer is parsed with `answer` (a contract schema), not cast. */
export async function adminCall<Answer extends z.ZodType>(
  answer: Answer,
  ...call: Parameters<typeof adminApi>
): Promise<z.output<Answer>> {
  return answer.parse(await adminApi<unknown>(...call));
}

/**
 * A `clientAction`'s write: checks the form, calls `send` with the checked fields as `prepare` made
 * them (the API parses them with the same schema) and the parsed value, and turns the API's refusal
 * into the form's texts. A failure that is not a refusal (the network, a 500) is thrown to the
 * route's error boundary.
 */
export async function submitAdminForm<Schema extends z.ZodType, Answer>(
  formData: FormData,
  checks: FormChecks<Schema> & {
    send(fields: FormFields, value: z.output<Schema>): Promise<Answer>;
    /** A form that starts blank (a note, an invitation) is emptied once its write went through. */
    resetOnSuccess?: boolean;
  },
): Promise<AdminFormOutcome<Answer>> {
  const submission = parseAdminForm(formData, checks);
  if (submission.status !== 'success') return { ok: false, result: submission.reply() };
  const { intent: _intent, ...fields } = submission.payload;
  try {
    const answer = await checks.send(checks.prepare ? checks.prepare(fields) : fields, submission.value);
    return { ok: true, answer, result: submission.reply({ resetForm: checks.resetOnSuccess === true }) };
  } catch (error) {
    const refusal = refusalOf(error);
    return {
      ok: false,
      result: submission.reply({ formErrors: [refusal.message], fieldErrors: refusal.fieldErrors }),
      refusal: refusal.details,
    };
  }
}

/**
 * A call without fields (delete, hide, a file sent; a listing a page shows in place): its answer,
 * or its refusal's message for the page and what the refusal named beyond it (a category's
 * products, a refused import's report). Anything but a refusal is thrown to the error boundary.
 */
export async function adminWrite<Answer>(
  call: () => Promise<Answer>,
): Promise<{ answer?: Answer; error?: string; recordChanged?: boolean; refusal?: AdminRefusal }> {
  try {
    return { answer: await call() };
  } catch (error) {
    const refusal = refusalOf(error);
    return { error: refusal.message, recordChanged: refusal.details.recordChanged, refusal: refusal.details };
  }
}

function refusalOf(error: unknown) {
  if (!(error instanceof AdminApiError) || error.status >= 500) throw error;
  return {
    message: error.message,
    fieldErrors: error.fieldErrors,
    details: {
      status: error.status,
      recordChanged: error.status === 409 && error.fieldErrors.version !== undefined,
      answer: error.answer,
    } satisfies AdminRefusal,
  };
}

/**
 * Conform's form for a back-office page: checked with the action's schema when sent, showing the
 * action's last result. Field values start from `defaultValue` (the loader's record); give the
 * form a `key` that changes with the record's version so a saved record resets it.
 */
export function useAdminForm<Shape extends Record<string, unknown> = Record<string, string>>(
  checks: FormChecks<z.ZodType> & {
    id?: string;
    lastResult: AdminFormResult | null | undefined;
    /** What the fields start with: the loader's record, as text. */
    defaultValue?: DefaultValue<Shape>;
  },
) {
  return useForm<Shape>({
    ...(checks.id ? { id: checks.id } : {}),
    lastResult: checks.lastResult ?? null,
    ...(checks.defaultValue ? { defaultValue: checks.defaultValue } : {}),
    shouldValidate: 'onSubmit',
    // The value's type is the action's business; the page only shows the texts.
    onValidate: ({ formData }) => parseAdminForm(formData, checks) as unknown as Submission<Shape>,
  });
}

/** The props `FormField`, `SelectField` and `TextAreaField` take for a Conform field. */
export function fieldProps(field: Pick<FieldMetadata<unknown>, 'name' | 'initialValue' | 'errors'>) {
  return {
    name: field.name,
    defaultValue: typeof field.initialValue === 'string' ? field.initialValue : '',
    errors: field.errors,
  };
}

/**
 * A form's fields as the unsaved-changes guard compares them: '', null, [] and absent alike, one
 * repeated value (`categories=3`) as itself, keys in any order (the browser reads them in the
 * page's order, the record lists them in its own).
 */
function comparable(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.map(comparable);
    if (items.length === 0) return undefined;
    return items.length === 1 && typeof items[0] === 'string' ? items[0] : items;
  }
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value)
      .map(([name, field]) => [name, comparable(field)] as const)
      .filter(([, field]) => field !== undefined)
      .sort(([first], [second]) => (first < second ? -1 : first > second ? 1 : 0));
    return entries.length === 0 ? undefined : Object.fromEntries(entries);
  }
  return value === '' || value === null ? undefined : value;
}

/**
 * Whether a form holds changes (for `useUnsavedChanges`): what its fields hold now (`form.value`)
 * against what they started from (the `defaultValue` given to `useAdminForm`). `ignored` names
 * fields the page fills in itself (a record's `version`, a figure shown), which are no one's change.
 */
export function formChanged(
  start: Record<string, unknown>,
  now: Record<string, unknown> | undefined,
  ignored: readonly string[] = [],
): boolean {
  if (now === undefined) return false;
  const without = (fields: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(fields).filter(([name]) => !ignored.includes(name)));
  return JSON.stringify(comparable(without(start))) !== JSON.stringify(comparable(without(now)));
}

/**
 * For `RequestAlert`: the message above the form and every field's texts (it shows those of fields
 * the form does not show).
 */
export function formAlert(form: { errors?: string[] | undefined; allErrors: Record<string, string[]> }) {
  const { [MESSAGE]: _message, ...errors } = form.allErrors;
  return { message: form.errors?.join(' '), errors };
}

/** `formAlert` for a result kept outside a form (one alert for several forms of a section). */
export function resultAlert(result: AdminFormResult | undefined) {
  const { [MESSAGE]: message, ...fields } = result?.error ?? {};
  const errors = Object.fromEntries(
    Object.entries(fields).flatMap(([field, texts]) => (texts ? [[field, texts]] : [])),
  );
  return { message: message?.join(' '), errors };
}

/**
 * A route's `shouldRevalidate`: a refused write changed nothing, so the page keeps its data and what
 * was typed into it (a form keyed by the record's version would start afresh on new data).
 */
export function revalidateUnlessRefused({
  actionResult,
  defaultShouldRevalidate,
}: {
  actionResult?: unknown;
  defaultShouldRevalidate: boolean;
}) {
  const refused =
    typeof actionResult === 'object' &&
    actionResult !== null &&
    (('ok' in actionResult && actionResult.ok === false) ||
      ('error' in actionResult && actionResult.error !== undefined));
  return refused ? false : defaultShouldRevalidate;
}
