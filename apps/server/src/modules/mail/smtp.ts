import nodemailer, { type Transporter } from 'nodemailer';
import type { Mailer, MailMessage } from './service.ts';

/** The {@link Mailer} of an SMTP server (`SMTP_URL`, e.g. `smtps://user:pass@mail.example.com`). */
export class SmtpMailer implements Mailer {
  readonly #transport: Transporter;
  readonly #from: string;

  constructor(options: { url: string; from: string }) {
    this.#transport = nodemailer.createTransport(options.url);
    this.#from = options.from;
  }

  async send(message: MailMessage): Promise<void> {
    await this.#transport.sendMail({
      from: this.#from,
      to: message.to,
      subject: message.subject,
      text: message.text,
    });
  }
}
