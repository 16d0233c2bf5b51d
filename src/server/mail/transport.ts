import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { parseConnectionUrl } from 'nodemailer/lib/shared/index.js';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import type StreamTransport from 'nodemailer/lib/stream-transport/index.js';

/**
 * Delivery of rendered mails: over SMTP when `smtpUrl` is configured, else (the embedded default)
 * as RFC 822 `.eml` files in the outbox folder, one per message, which any mail client opens.
 */

export interface MailMessage {
  from: string;
  to: string;
  replyTo?: string;
  subject: string;
  html: string;
  text: string;
  /** The `mails` row, for the outbox file name and the log. */
  mailId?: number;
}

export interface MailTransport {
  /** Resolves once the message is accepted (by the SMTP server, or written to disk); else throws. */
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** The part of a pino (Fastify) logger the transport uses. */
export interface MailLog {
  info(details: object, message: string): void;
}

export interface MailTransportOptions {
  smtpUrl: string | undefined;
  outboxDir: string;
}

/** An unreachable or stalled server fails the attempt after this long; the queue retries later. */
const SMTP_TIMEOUT_MS = 10_000;

/** Headers of every message: automatic mail, so vacation responders stay quiet. */
const HEADERS = { 'Auto-Submitted': 'auto-generated' };

const envelopeOf = (message: MailMessage) => ({
  from: message.from,
  to: message.to,
  ...(message.replyTo ? { replyTo: message.replyTo } : {}),
  subject: message.subject,
  html: message.html,
  text: message.text,
  headers: HEADERS,
});

export function createMailTransport(options: MailTransportOptions, log: MailLog): MailTransport {
  return options.smtpUrl ? smtpTransport(options.smtpUrl, log) : fileTransport(options.outboxDir, log);
}

function smtpTransport(smtpUrl: string, log: MailLog): MailTransport {
  // Settings in the URL's query (?tls.rejectUnauthorized=false, ?connectionTimeout=…) win.
  const smtpOptions: SMTPTransport.Options = {
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
    ...parseConnectionUrl(smtpUrl),
  };
  const transporter = nodemailer.createTransport(smtpOptions);
  return {
    async send(message) {
      const info = await transporter.sendMail(envelopeOf(message));
      log.info(
        { mailId: message.mailId, messageId: info.messageId },
        `mail to ${message.to}: ${message.subject} → SMTP`,
      );
    },
    close: () => transporter.close(),
  };
}

function fileTransport(outboxDir: string, log: MailLog): MailTransport {
  const streamOptions: StreamTransport.Options = { streamTransport: true, buffer: true, newline: 'windows' };
  const transporter = nodemailer.createTransport(streamOptions);
  return {
    async send(message) {
      const info = await transporter.sendMail(envelopeOf(message));
      if (!Buffer.isBuffer(info.message)) throw new Error('The stream transport did not buffer the message');
      await mkdir(outboxDir, { recursive: true });
      // Colons are not allowed in Windows file names; the stamp stays sortable.
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = path.join(outboxDir, `${stamp}-${message.mailId ?? randomUUID()}.eml`);
      await writeFile(file, info.message, { flag: 'wx' });
      log.info({ mailId: message.mailId, file }, `mail to ${message.to}: ${message.subject} → ${file}`);
    },
    close: () => transporter.close(),
  };
}
