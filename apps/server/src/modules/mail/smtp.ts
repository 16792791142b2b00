import type { Transporter } from 'nodemailer';
import type { Mailer, MailMessage } from './service.ts';

/** The {@link Mailer} of an SMTP server (`SMTP_URL`, e.g. `smtps://user:pass@mail.example.com`). */
export class SmtpMailer implements Mailer {
  readonly #url: string;
  readonly #from: string;
  // why: the library is loaded with the first message, not at start (a few tens of milliseconds
  // every start would pay, and nothing is sent before the server listens).
  #transport: Promise<Transporter> | undefined;

  constructor(options: { url: string; from: string }) {
    this.#url = options.url;
    this.#from = options.from;
  }

  async send(message: MailMessage): Promise<void> {
    this.#transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport(this.#url),
    );
    await (await this.#transport).sendMail({
      from: this.#from,
      to: message.to,
      subject: message.subject,
      text: message.text,
    });
  }
}
