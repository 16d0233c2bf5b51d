import { translateError } from '../../../contract/error-messages.ts';
import type { Locale } from '../../../contract/locale.ts';
import type { Database } from '../../db/client.ts';
import { Conflict, Invalid } from '../../errors.ts';
import type { SpreadsheetEncoding } from '../../files/spreadsheet-csv.ts';
import type { MailShop } from '../../mail/templates.ts';
import { apply } from './apply.ts';
import type { CsvReport, CsvRowError, RowProblem } from './columns.ts';
import { plan } from './plan.ts';

const isUniqueViolation = (error: unknown): boolean => {
  const code = (value: unknown) => (value as { code?: unknown } | undefined)?.code;
  return code(error) === '23505' || code((error as { cause?: unknown } | undefined)?.cause) === '23505';
};

/**
 * Checks a CSV file and, unless `dryRun`, applies it in one transaction. Returns the report; with
 * any row error nothing is applied and the report comes back as a 422 (`Invalid` with the report
 * in its details). Messages are in `locale`. A real import changes everything shown (services.writes
 * applies it).
 */
export async function importProductsCsv(
  db: Database,
  options: {
    csv: string;
    /** How the file was written (readSpreadsheetFile); UTF-8 when not told. */
    encoding?: SpreadsheetEncoding;
    dryRun: boolean;
    actorId: number;
    locale: Locale;
    context: { publicUrl: string; shop?: MailShop };
  },
): Promise<CsvReport> {
  const translate = ({ detail, ...error }: RowProblem): CsvRowError => {
    const text = translateError(options.locale, error.message);
    return { ...error, message: detail ? `${text} (${detail})` : text };
  };
  try {
    return await db.transaction(async (transaction) => {
      const result = await plan(transaction, options.csv, options.encoding ?? 'utf-8');
      const report: CsvReport = {
        dryRun: options.dryRun,
        created: result.planned.filter((step) => !step.existing).map((step) => step.link),
        updated: result.planned
          .filter((step) => step.existing && Object.keys(step.changes).length > 0)
          .map((step) => ({ link: step.link, changes: step.changes })),
        unchanged: result.planned.filter((step) => step.existing && Object.keys(step.changes).length === 0)
          .length,
        errors: result.errors.map(translate),
        warnings: result.warnings.map(translate),
      };
      if (report.errors.length > 0) {
        throw new Invalid('csv-rows-invalid', {}, undefined, { ...report });
      }
      if (options.dryRun || !result.projectIds || !result.categoryIds) return report;
      const ids = { projects: result.projectIds, categories: result.categoryIds };
      for (const step of result.planned) {
        if (step.existing && Object.keys(step.changes).length === 0) continue;
        await apply(transaction, step, ids, { actorId: options.actorId, ...options.context });
      }
      return report;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new Conflict('link-taken', { link: ['link-taken'] });
    throw error;
  }
}
