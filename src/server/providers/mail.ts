/**
 * E-mail sending behind one interface: SMTP through nodemailer when SMTP_URL is set,
 * otherwise the development outbox.
 */
import type { Db } from '../types.ts';
import nodemailer from 'nodemailer';
import type { Config } from '../config.ts';
import { writeOutbox } from './outbox.ts';

export interface MailProvider {
  readonly kind: 'smtp' | 'outbox';
  send(to: string, subject: string, text: string): Promise<void>;
}

export class SmtpMail implements MailProvider {
  readonly kind = 'smtp' as const;
  private readonly transport;
  constructor(
    url: string,
    private readonly from: string,
  ) {
    this.transport = nodemailer.createTransport(url);
  }

  async send(to: string, subject: string, text: string): Promise<void> {
    await this.transport.sendMail({ from: this.from, to, subject, text });
  }
}

export class OutboxMail implements MailProvider {
  readonly kind = 'outbox' as const;
  constructor(private readonly db: Db) {}

  async send(to: string, subject: string, text: string): Promise<void> {
    await writeOutbox(this.db, { channel: 'email', target: to, subject, content: text });
  }
}

export function createMailProvider(config: Config, db: Db): MailProvider {
  return config.smtpUrl ? new SmtpMail(config.smtpUrl, config.mailFrom) : new OutboxMail(db);
}
