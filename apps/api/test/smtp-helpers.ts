import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';
import { waitFor } from './wait';

/** An e-mail as the test SMTP server received it. */
export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  messageId: string;
  idempotencyKey: string | null;
  /** The List-Unsubscribe and List-Unsubscribe-Post headers as sent (RFC 8058), or null. */
  listUnsubscribe: string | null;
  listUnsubscribePost: string | null;
}

export interface TestSmtpServer {
  url: string;
  port: number;
  received: ReceivedMail[];
  /** Addresses the server refuses with 550 (RCPT TO). */
  reject: Set<string>;
  /** Resolves when `count` mails have arrived in all (or fails after the timeout). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

/**
 * A real SMTP server (the `smtp-server` package) on 127.0.0.1 that keeps what it receives, parsed by mailparser:
 * what the portal sends arrives over a real SMTP conversation, and an address in `reject` is refused with 550.
 */
export async function startSmtpServer(): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const reject = new Set<string>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (reject.has(address.address.toLowerCase())) {
        const error = Object.assign(new Error(`5.1.1 <${address.address}>: Recipient address rejected`), {
          responseCode: 550,
        });
        return callback(error);
      }
      callback();
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          // The header's own text (mailparser parses List-* headers into objects).
          const header = (name: string) =>
            mail.headerLines
              .find((h) => h.key === name)
              ?.line.replace(/^[^:]+:\s*/, '')
              .replace(/\r?\n\s+/g, '') ?? null;
          received.push({
            from: mail.from?.text ?? '',
            to: session.envelope.rcptTo.map((r) => r.address),
            subject: mail.subject ?? '',
            text: mail.text ?? '',
            html: typeof mail.html === 'string' ? mail.html : '',
            messageId: mail.messageId ?? '',
            idempotencyKey: (mail.headers.get('x-portal-idempotency-key') as string | undefined) ?? null,
            listUnsubscribe: header('list-unsubscribe'),
            listUnsubscribePost: header('list-unsubscribe-post'),
          });
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    received,
    reject,
    async waitFor(count, timeoutMs = 30_000) {
      await waitFor(() => received.map((m) => m.subject), {
        what: `${count} mails`,
        until: (subjects) => subjects.length >= count,
        show: (subjects) => `${subjects.length} arrived: ${subjects.join('; ')}`,
        timeoutMs,
      });
      return received;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A port nothing listens on (for the unreachable server): one the OS gave and took back. */
export async function closedPort(): Promise<number> {
  const probe = new SMTPServer({ logger: false });
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
  const port = (probe.server.address() as { port: number }).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
