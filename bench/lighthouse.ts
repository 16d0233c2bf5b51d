import { accessSync, constants } from 'node:fs';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Flags, type Result } from 'lighthouse';

export const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
export type CategoryId = (typeof CATEGORIES)[number];

/** Score ×100 each category must reach. */
export const LIGHTHOUSE_TARGETS: Record<CategoryId, number> = {
  performance: 95,
  accessibility: 100,
  'best-practices': 100,
  seo: 100,
};

export const CHROME_PATH = '/usr/bin/chromium';

/**
 * Why Lighthouse cannot run here, or undefined when Chromium is there. Without this check a
 * missing browser crashes the whole bench: chrome-launcher's spawn fails with an 'error' event
 * that nothing listens to.
 */
export function chromeUnavailable(): string | undefined {
  try {
    accessSync(CHROME_PATH, constants.X_OK);
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? `${CHROME_PATH} is missing` : `${CHROME_PATH} cannot be run (${code})`;
  }
}

const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  // Offline guard: every host but the local one fails to resolve at once instead of reaching
  // (or waiting for) the internet. Without the 127.0.0.1 exclusion Chrome blocks the shop too.
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost',
];

export interface FailingAudit {
  id: string;
  title: string;
  displayValue?: string;
  /** 0–100, or null for audits that errored. */
  score: number | null;
  /** Weight in the category score (only the performance metrics weigh anything there). */
  weight: number;
  /** A few of the offending elements or resources, to find them quickly. */
  examples: string[];
  error?: string;
}

export interface CategoryResult {
  id: CategoryId;
  score: number | null;
  target: number;
  pass: boolean;
  failing: FailingAudit[];
}

export interface PageAudit {
  name: string;
  url: string;
  finalUrl?: string;
  categories: CategoryResult[];
  /** Key metrics, for the record. */
  metrics: Record<string, { value: number | undefined; displayValue: string | undefined }>;
  /** Requests the page made to anything but the shop's own origin (should be none). */
  externalRequests: string[];
  /**
   * The scripts the browser downloaded while the page loaded, with the bytes it received for them
   * (compressed as sent): the preloaded ones and any a first visit imports without a click.
   */
  scripts: { count: number; transferBytes: number };
  runWarnings: string[];
  runtimeError?: string;
  /** Lighthouse's CPU benchmark of this machine (≈1000+ for a typical desktop). */
  benchmarkIndex?: number;
}

let chrome: chromeLauncher.LaunchedChrome | undefined;

/** Kills the Chromium launched for the audit in progress, if any (used on Ctrl-C and errors). */
export function killChrome() {
  try {
    chrome?.kill();
  } catch {
    // already gone
  }
  chrome = undefined;
}

type AuditResult = Result['audits'][string];

function truncate(text: string, length = 160) {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > length ? `${flat.slice(0, length - 1)}…` : flat;
}

/** Pulls node selectors / snippets or resource URLs out of an audit's details table. */
function examplesOf(audit: AuditResult, max = 5): string[] {
  const details = audit.details as { type?: string; items?: unknown[] } | undefined;
  if (!details || !Array.isArray(details.items)) return [];
  // 'list' details (e.g. largest-contentful-paint-element) hold tables of their own.
  const items =
    details.type === 'list'
      ? details.items.flatMap((sub) => {
          const table = sub as { type?: string; items?: unknown[] };
          return table.type === 'table' && Array.isArray(table.items) ? table.items : [];
        })
      : details.items;
  const examples: string[] = [];
  for (const raw of items) {
    if (examples.length >= max) break;
    const item = raw as Record<string, unknown>;
    const node = item.node as { selector?: string; snippet?: string; nodeLabel?: string } | undefined;
    const source = item.source as { url?: string } | undefined;
    let text: string | undefined;
    if (node?.snippet || node?.selector) {
      // nodeLabel is the element's text, or a repeat of the selector/snippet when it has none.
      const label =
        node.nodeLabel && node.nodeLabel !== node.snippet && node.nodeLabel !== node.selector
          ? `"${node.nodeLabel}"`
          : undefined;
      text = [node.selector, label, node.snippet].filter(Boolean).join('  ');
    } else if (typeof item.phase === 'string' && typeof item.timing === 'number') {
      // largest-contentful-paint-element: where the LCP time goes (TTFB, load delay, render delay…).
      text = `${item.phase}: ${Math.round(item.timing)} ms`;
    } else if (typeof item.url === 'string') {
      text = item.url;
    } else if (source?.url) {
      text = source.url;
    } else if (typeof item.description === 'string') {
      text = item.description;
    } else if (typeof item.reason === 'string') {
      text = item.reason;
    }
    if (text) examples.push(truncate(text));
  }
  const total = items.length;
  if (total > examples.length && examples.length > 0) examples.push(`… ${total - examples.length} more`);
  return examples;
}

function failingAudits(lhr: Result, id: CategoryId): FailingAudit[] {
  const category = lhr.categories[id];
  if (!category) return [];
  const failing: FailingAudit[] = [];
  for (const ref of category.auditRefs) {
    if (ref.group === 'hidden') continue;
    const audit = lhr.audits[ref.id];
    if (!audit) continue;
    const mode = audit.scoreDisplayMode;
    const errored = mode === 'error';
    if (!errored && (audit.score === null || audit.score >= 1)) continue;
    if (mode === 'manual' || mode === 'notApplicable' || mode === 'informative') continue;
    failing.push({
      id: audit.id,
      title: audit.title,
      displayValue: audit.displayValue,
      score: audit.score === null ? null : Math.round(audit.score * 100),
      weight: ref.weight,
      examples: examplesOf(audit),
      error: audit.errorMessage,
    });
  }
  // Weighted metrics first, then the rest by score.
  return failing.sort((a, b) => b.weight - a.weight || (a.score ?? -1) - (b.score ?? -1));
}

const METRICS = [
  'first-contentful-paint',
  'largest-contentful-paint',
  'total-blocking-time',
  'cumulative-layout-shift',
  'speed-index',
  'server-response-time',
];

export async function auditPage(
  name: string,
  url: string,
  headers: Record<string, string>,
): Promise<PageAudit> {
  chrome = await chromeLauncher.launch({
    chromePath: CHROME_PATH,
    chromeFlags: CHROME_FLAGS,
    handleSIGINT: false,
    logLevel: 'silent',
  });
  try {
    const flags: Flags = {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: [...CATEGORIES],
      extraHeaders: headers,
    };
    // No config argument: Lighthouse's default config, i.e. the mobile form factor with
    // simulated slow 4G and 4× CPU slowdown.
    const runner = await lighthouse(url, flags);
    if (!runner) throw new Error(`Lighthouse returned nothing for ${url}`);
    const lhr = runner.lhr;

    const categories = CATEGORIES.map((id): CategoryResult => {
      const raw = lhr.categories[id]?.score;
      const score = raw === null || raw === undefined ? null : Math.round(raw * 100);
      const target = LIGHTHOUSE_TARGETS[id];
      const pass = score !== null && score >= target;
      // After a runtime error every audit "fails" with that same error: listing them is noise.
      const failing = pass || lhr.runtimeError ? [] : failingAudits(lhr, id);
      return { id, score, target, pass, failing };
    });

    const origin = new URL(url).origin;
    const requests = (
      lhr.audits['network-requests']?.details as
        | { items?: Array<{ url?: string; resourceType?: string; transferSize?: number }> }
        | undefined
    )?.items;
    const scripts = (requests ?? []).filter((item) => item.resourceType === 'Script');
    const externalRequests = [
      ...new Set(
        (requests ?? [])
          .map((item) => item.url ?? '')
          .filter((requestUrl) => /^https?:/.test(requestUrl) && !requestUrl.startsWith(origin)),
      ),
    ];

    return {
      name,
      url,
      finalUrl: lhr.finalDisplayedUrl,
      categories,
      metrics: Object.fromEntries(
        METRICS.map((id) => [
          id,
          { value: lhr.audits[id]?.numericValue, displayValue: lhr.audits[id]?.displayValue },
        ]),
      ),
      externalRequests,
      scripts: {
        count: scripts.length,
        transferBytes: scripts.reduce((total, item) => total + (item.transferSize ?? 0), 0),
      },
      runWarnings: lhr.runWarnings.map((warning) => truncate(String(warning), 300)),
      runtimeError: lhr.runtimeError ? `${lhr.runtimeError.code}: ${lhr.runtimeError.message}` : undefined,
      benchmarkIndex: lhr.environment.benchmarkIndex,
    };
  } finally {
    killChrome();
  }
}
