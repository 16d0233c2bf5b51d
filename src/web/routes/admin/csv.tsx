import { useId, useState } from 'react';
import { useFetcher } from 'react-router';
import { csvImportRefusal, csvImportResponse } from '../../../contract/admin.ts';
import { translateError } from '../../../contract/error-messages.ts';
import { pageLocale } from '../../admin/api.ts';
import { adminCall, adminWrite } from '../../admin/forms.ts';
import { useAdminShop } from '../../admin/text.ts';
import type { CsvReport } from '../../admin/types.ts';
import { AdminErrorBoundary, AdminPage, BusyButton } from '../../admin/ui.tsx';
import { useUnsavedChanges } from '../../admin/unsaved-changes.tsx';
import { FormAlert, FormSuccess } from '../../components/form-field.tsx';
import type { Route } from './+types/csv';

/** A refused import (rows in error) answers 422 with the report in the answer itself. */
function reportOf(value: Record<string, unknown> | undefined): CsvReport | null {
  return csvImportRefusal.safeParse({ warnings: [], ...value }).data ?? null;
}

/**
 * Sends the chosen file to the import as it is (the API reads its bytes): `check` is a dry run
 * that reports what the file would change, `apply` imports it. The report is the answer's data.
 */
export async function clientAction({ request }: Route.ClientActionArgs) {
  const formData = await request.formData();
  const csv = formData.get('csv');
  // A form sent with no file chosen holds an empty, nameless part.
  if (!(csv instanceof File) || csv.name === '')
    return { error: translateError(pageLocale(), 'file-required') };
  const { answer, refusal, error } = await adminWrite(() =>
    adminCall(csvImportResponse, 'POST', '/products.csv', {
      csv,
      query: { dryRun: formData.get('intent') === 'check' ? '1' : undefined },
    }),
  );
  const report = answer ?? reportOf(refusal?.answer);
  return report ? { report } : { error };
}

const shown = (value: unknown) =>
  value === null || value === undefined || value === ''
    ? '—'
    : Array.isArray(value)
      ? value.join(' | ') || '—'
      : typeof value === 'object'
        ? JSON.stringify(value)
        : String(value);

/** A table of the file's lines the import refused or warned about: line, column and why; nothing when none. */
function LineTable({
  title,
  why,
  lines,
}: {
  title: string;
  why: string;
  lines: readonly { line: number; field: string; message: string }[];
}) {
  const { t } = useAdminShop();
  if (lines.length === 0) return null;
  return (
    <>
      <h3>{title}</h3>
      <div className="admin-table-scroll">
        <table className="admin-table">
          <thead>
            <tr>
              <th scope="col">{t('admin-csv-line')}</th>
              <th scope="col">{t('admin-csv-column')}</th>
              <th scope="col">{why}</th>
            </tr>
          </thead>
          <tbody>
            {lines.map((entry) => (
              <tr key={`${entry.line}-${entry.field}-${entry.message}`}>
                <td>{entry.line}</td>
                <td>{entry.field}</td>
                <td>{entry.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function Report({ report }: { report: CsvReport }) {
  const { t } = useAdminShop();
  return (
    <section className="admin-card csv-report" aria-labelledby="csv-report-heading">
      <h2 id="csv-report-heading">
        {report.dryRun ? t('admin-csv-dry-run-report') : t('admin-csv-import-report')}
      </h2>
      <dl className="admin-stats">
        <div>
          <dt>{t('admin-csv-created')}</dt>
          <dd>{report.created.length}</dd>
        </div>
        <div>
          <dt>{t('admin-csv-updated')}</dt>
          <dd>{report.updated.length}</dd>
        </div>
        <div>
          <dt>{t('admin-csv-unchanged')}</dt>
          <dd>{report.unchanged}</dd>
        </div>
        {report.warnings.length > 0 ? (
          <div>
            <dt>{t('admin-csv-warnings')}</dt>
            <dd>{report.warnings.length}</dd>
          </div>
        ) : null}
        <div>
          <dt>{t('admin-csv-errors')}</dt>
          <dd className={report.errors.length > 0 ? 'admin-danger' : undefined}>{report.errors.length}</dd>
        </div>
      </dl>

      <LineTable title={t('admin-csv-errors')} why={t('admin-csv-problem')} lines={report.errors} />
      <LineTable title={t('admin-csv-warnings')} why={t('admin-csv-kept-why')} lines={report.warnings} />

      {report.created.length > 0 ? (
        <>
          <h3>{t('admin-csv-created')}</h3>
          <ul className="admin-tags">
            {report.created.map((link) => (
              <li key={link}>{link}</li>
            ))}
          </ul>
        </>
      ) : null}

      {report.updated.length > 0 ? (
        <>
          <h3>{t('admin-csv-updated')}</h3>
          {report.updated.map((product) => (
            <div key={product.link} className="admin-table-scroll">
              <table className="admin-table">
                <caption>{product.link}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('admin-csv-column')}</th>
                    <th scope="col">{t('admin-before')}</th>
                    <th scope="col">{t('admin-after')}</th>
                  </tr>
                </thead>
                <tbody>
                  {Object.entries(product.changes).map(([field, change]) => (
                    <tr key={field}>
                      <th scope="row">{field}</th>
                      <td className="csv-report__value">{shown(change?.[0])}</td>
                      <td className="csv-report__value">{shown(change?.[1])}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ))}
        </>
      ) : null}
    </section>
  );
}

/** Products as CSV: download every product; upload a file, see what it would change, then apply it. */
export default function CsvPage() {
  const { t } = useAdminShop();
  const fileId = useId();
  // Whether the file field holds a file: the check needs one, and an unapplied one is a change.
  const [fileChosen, setFileChosen] = useState(false);
  const importer = useFetcher<typeof clientAction>();
  const report = importer.data && 'report' in importer.data ? importer.data.report : null;
  const error = importer.data && 'error' in importer.data ? importer.data.error : undefined;
  const sending = importer.state === 'idle' ? null : importer.formData?.get('intent');
  useUnsavedChanges(fileChosen && report?.dryRun !== false);

  const changes = report ? report.created.length + report.updated.length : 0;
  const canApply = report?.dryRun === true && report.errors.length === 0 && changes > 0;

  return (
    <AdminPage title={t('admin-csv')}>
      <section className="admin-card" aria-labelledby="csv-export-heading">
        <h2 id="csv-export-heading">{t('admin-csv-export')}</h2>
        <p>{t('admin-csv-export-text')}</p>
        <a className="button" href="/api/admin/products.csv" download="products.csv">
          {t('admin-csv-download')}
        </a>
      </section>

      <importer.Form
        method="post"
        encType="multipart/form-data"
        className="admin-card admin-form"
        aria-labelledby="csv-import-heading"
      >
        <h2 id="csv-import-heading">{t('admin-csv-import')}</h2>
        <p>{t('admin-csv-import-text')}</p>
        <div className="form-field">
          <label htmlFor={fileId}>{t('admin-csv-file')}</label>
          <input
            id={fileId}
            name="csv"
            type="file"
            accept=".csv,text/csv"
            onChange={(event) => {
              // Another file: the report (and its apply button) was about the one before.
              importer.reset();
              setFileChosen((event.target.files?.length ?? 0) > 0);
            }}
          />
        </div>
        {error ? <FormAlert>{error}</FormAlert> : null}
        <div className="admin-actions">
          <BusyButton
            busy={sending === 'check'}
            disabled={!fileChosen}
            primary={!canApply}
            name="intent"
            value="check"
          >
            {t('admin-csv-check')}
          </BusyButton>
          {canApply ? (
            <BusyButton busy={sending === 'apply'} primary name="intent" value="apply">
              {t('admin-csv-apply', { count: changes })}
            </BusyButton>
          ) : null}
        </div>
        {report && !report.dryRun ? (
          <FormSuccess>{t('admin-csv-applied', { count: changes })}</FormSuccess>
        ) : null}
        {report?.dryRun && report.errors.length === 0 && changes === 0 ? (
          <p role="status">{t('admin-csv-nothing-to-change')}</p>
        ) : null}
      </importer.Form>

      {report ? <Report report={report} /> : null}
    </AdminPage>
  );
}

export function ErrorBoundary() {
  return <AdminErrorBoundary />;
}
