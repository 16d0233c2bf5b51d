import type { Locale } from '../../contract/locale.ts';

/**
 * How a mail is drawn. A template composes its content from a few kinds of blocks (paragraph,
 * button, details, items, quote, note); one layout turns the blocks into the HTML part (inline
 * styles, every value escaped) and the plain-text part, so the two parts say the same thing and no
 * template writes HTML by hand.
 */

export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
}

/** Who the mail comes from, for the header link and the footer. */
export interface MailShop {
  email: string;
  /** The shop's public origin; the header links to it when given. */
  url?: string;
  /** The language of mails to `email` itself (SHOP_LOCALE); Russian when not given. */
  locale?: Locale;
}

export const DEFAULT_MAIL_SHOP: MailShop = { email: 'shop@vitrina.example' };

// ── Escaping ────────────────────────────────────────────────────────────────────────────────────

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(value: string | number): string {
  return String(value).replace(/[&<>"']/g, (character) => HTML_ESCAPES[character] ?? character);
}

/** Only web and mail links go into an href; anything else is a bug in the caller. */
function safeHref(url: string): string {
  if (!/^(https?:\/\/|mailto:)/i.test(url)) throw new TypeError(`Refusing to put "${url}" into a mail link`);
  return url;
}

// ── Blocks and the layout ───────────────────────────────────────────────────────────────────────

export type Inline = string | { strong: string };

export type Block =
  | { kind: 'paragraph'; content: Inline[] }
  | { kind: 'button'; label: string; href: string }
  | { kind: 'details'; rows: [label: string, value: string][] }
  | {
      kind: 'items';
      headings: [name: string, count: string, amount: string];
      rows: { name: string; detail?: string; count: number; amount: string }[];
      totals: [label: string, value: string][];
    }
  | { kind: 'quote'; text: string }
  | { kind: 'note'; text: string };

export interface Content {
  subject: string;
  blocks: Block[];
}

export const paragraph = (...content: Inline[]): Block => ({ kind: 'paragraph', content });
export const strong = (text: string | number): Inline => ({ strong: String(text) });

const FONT = "font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";
const INK = '#1f2933';
const MUTED = '#6b7280';
const RULE = '#e5e1da';
const ACCENT = '#7c3aed';

const inlineHtml = (content: Inline[]) =>
  content
    .map((part) =>
      typeof part === 'string' ? escapeHtml(part) : `<strong>${escapeHtml(part.strong)}</strong>`,
    )
    .join('');

const inlineText = (content: Inline[]) =>
  content.map((part) => (typeof part === 'string' ? part : part.strong)).join('');

const multiline = (text: string) => escapeHtml(text).replace(/\r?\n/g, '<br>');

function blockHtml(block: Block): string {
  switch (block.kind) {
    case 'paragraph':
      return `<p style="margin:0 0 16px">${inlineHtml(block.content)}</p>`;
    case 'button': {
      const href = escapeHtml(safeHref(block.href));
      return (
        `<p style="margin:24px 0"><a href="${href}" style="display:inline-block;padding:12px 24px;` +
        `background:${ACCENT};color:#ffffff;text-decoration:none;border-radius:6px;font-weight:600">` +
        `${escapeHtml(block.label)}</a></p>` +
        `<p style="margin:0 0 16px;font-size:13px;color:${MUTED};word-break:break-all">` +
        `<a href="${href}" style="color:${MUTED}">${href}</a></p>`
      );
    }
    case 'details':
      return (
        `<table role="presentation" cellpadding="0" cellspacing="0" style="margin:0 0 16px;border-collapse:collapse">` +
        block.rows
          .map(
            ([label, value]) =>
              `<tr><td style="padding:4px 16px 4px 0;color:${MUTED};vertical-align:top">${escapeHtml(label)}</td>` +
              `<td style="padding:4px 0">${multiline(value)}</td></tr>`,
          )
          .join('') +
        '</table>'
      );
    case 'items': {
      const cell = `padding:8px 0;border-bottom:1px solid ${RULE}`;
      const [nameHeading, countHeading, amountHeading] = block.headings.map(escapeHtml);
      return (
        `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="margin:0 0 16px;border-collapse:collapse">` +
        `<tr><th align="left" style="${cell};color:${MUTED};font-weight:400">${nameHeading}</th>` +
        `<th align="center" style="${cell};color:${MUTED};font-weight:400">${countHeading}</th>` +
        `<th align="right" style="${cell};color:${MUTED};font-weight:400">${amountHeading}</th></tr>` +
        block.rows
          .map(
            (row) =>
              `<tr><td style="${cell}">${escapeHtml(row.name)}` +
              (row.detail
                ? `<br><span style="font-size:13px;color:${MUTED}">${escapeHtml(row.detail)}</span>`
                : '') +
              '</td>' +
              `<td align="center" style="${cell}">${escapeHtml(row.count)}</td>` +
              `<td align="right" style="${cell};white-space:nowrap">${escapeHtml(row.amount)}</td></tr>`,
          )
          .join('') +
        block.totals
          .map(
            ([label, value], index) =>
              `<tr${index === block.totals.length - 1 ? ' style="font-weight:700"' : ''}>` +
              `<td colspan="2" style="padding:6px 0">${escapeHtml(label)}</td>` +
              `<td align="right" style="padding:6px 0;white-space:nowrap">${escapeHtml(value)}</td></tr>`,
          )
          .join('') +
        '</table>'
      );
    }
    case 'quote':
      return (
        `<blockquote style="margin:0 0 16px;padding:12px 16px;border-left:4px solid ${RULE};` +
        `background:#faf8f5">${multiline(block.text)}</blockquote>`
      );
    case 'note':
      return `<p style="margin:16px 0 0;font-size:14px;color:${MUTED}">${escapeHtml(block.text)}</p>`;
  }
}

function blockText(block: Block): string {
  switch (block.kind) {
    case 'paragraph':
      return inlineText(block.content);
    case 'button':
      return `${block.label}:\n${block.href}`;
    case 'details':
      return block.rows.map(([label, value]) => `${label}: ${value}`).join('\n');
    case 'items':
      return [
        ...block.rows.map(
          (row) => `- ${row.name}${row.detail ? ` (${row.detail})` : ''} × ${row.count}: ${row.amount}`,
        ),
        '',
        ...block.totals.map(([label, value]) => `${label}: ${value}`),
      ].join('\n');
    case 'quote':
      return block.text
        .split(/\r?\n/)
        .map((line) => `> ${line}`)
        .join('\n');
    case 'note':
      return block.text;
  }
}

const SHOP_NAMES: Record<Locale, string> = { ru: 'Витрина', en: 'Vitrina' };
const FOOTERS: Record<Locale, string> = {
  ru: 'Есть вопросы? Напишите нам:',
  en: 'Questions? Write to us at',
};

/** The one layout of every mail: header with the shop name, the content, footer with the shop e-mail. */
export function layout(content: Content, locale: Locale, shop: MailShop): RenderedMail {
  const shopName = SHOP_NAMES[locale];
  const shopEmail = escapeHtml(shop.email);
  const title = shop.url
    ? `<a href="${escapeHtml(safeHref(shop.url))}" style="color:#ffffff;text-decoration:none">${shopName}</a>`
    : shopName;
  const html =
    `<!doctype html><html lang="${locale}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<title>${escapeHtml(content.subject)}</title></head>` +
    `<body style="margin:0;padding:0;background:#f4f1ec">` +
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f1ec">` +
    `<tr><td align="center" style="padding:24px 12px">` +
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" ` +
    `style="max-width:600px;background:#ffffff;border-radius:8px;overflow:hidden;${FONT}">` +
    `<tr><td style="padding:20px 32px;background:${INK};color:#ffffff;font-size:22px;font-weight:700;letter-spacing:0.5px">${title}</td></tr>` +
    `<tr><td style="padding:32px;font-size:16px;line-height:1.5;color:${INK}">` +
    content.blocks.map(blockHtml).join('') +
    `</td></tr>` +
    `<tr><td style="padding:16px 32px 24px;border-top:1px solid ${RULE};font-size:13px;color:${MUTED}">` +
    `${escapeHtml(FOOTERS[locale])} <a href="mailto:${shopEmail}" style="color:${MUTED}">${shopEmail}</a>` +
    `</td></tr></table></td></tr></table></body></html>`;
  const footer = [`${shopName} · ${shop.email}`, ...(shop.url ? [shop.url] : [])].join('\n');
  const text = `${content.blocks.map(blockText).join('\n\n')}\n\n-- \n${footer}\n`;
  return { subject: content.subject, html, text };
}
