import { EventEmitter, once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** One e-mail the sink accepted, parsed. */
export interface ReceivedMail {
  /** The envelope's recipients (RCPT TO), lower-cased. */
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  /** Header values by lower-case name, as written (unfolded). */
  headers: Map<string, string>;
  parsed: ParsedMail;
}

export interface SmtpSink {
  /** SMTP_URL for the server under test: smtp://user:pass@127.0.0.1:port (any credentials are accepted). */
  url: string;
  /** Every e-mail accepted so far, in order. */
  mails: ReceivedMail[];
  /**
   * The first e-mail accepted (before or after the call) that `match` holds
   * of and no earlier call took. Waits for the sink's own event; `timeoutMs`
   * only bounds a test that would otherwise hang.
   */
  waitForMail(match?: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  /**
   * While on, every message is answered `451 try again later` (a temporary
   * failure) and kept nowhere; `refused` counts them.
   */
  refuse(on: boolean): void;
  refused: number;
  stop(): Promise<void>;
}

/**
 * A real SMTP server on loopback for tests (smtp-server, plain SMTP without
 * STARTTLS, any login accepted), keeping what it receives parsed with
 * mailparser.
 */
export async function startSmtpSink(): Promise<SmtpSink> {
  const mails: ReceivedMail[] = [];
  const taken = new Set<ReceivedMail>();
  const arrivals = new EventEmitter();
  let refusing = false;
  let refused = 0;
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      callback(null, { user: auth.username ?? 'test' });
    },
    onData(stream, session, callback) {
      if (refusing) {
        refused += 1;
        stream.resume();
        stream.on('end', () => callback(Object.assign(new Error('try again later'), { responseCode: 451 })));
        return;
      }
      simpleParser(stream)
        .then((parsed) => {
          // As written (unfolded), not as mailparser interprets them (it turns List-* headers into objects).
          const headers = new Map<string, string>();
          for (const { key, line } of parsed.headerLines)
            headers.set(
              key.toLowerCase(),
              line
                .slice(line.indexOf(':') + 1)
                .replace(/\r?\n[ \t]+/g, ' ')
                .trim(),
            );
          const mail: ReceivedMail = {
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
            headers,
            parsed,
          };
          mails.push(mail);
          arrivals.emit('mail', mail);
          callback();
        })
        .catch((err: unknown) => callback(err as Error));
    },
  });
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  const { port } = server.server.address() as AddressInfo;

  const take = (match: (mail: ReceivedMail) => boolean) => {
    const mail = mails.find((m) => !taken.has(m) && match(m));
    if (mail) taken.add(mail);
    return mail;
  };

  return {
    url: `smtp://test:test@127.0.0.1:${port}`,
    mails,
    async waitForMail(match = () => true, timeoutMs = 15_000) {
      const ready = take(match);
      if (ready) return ready;
      return new Promise<ReceivedMail>((resolve, reject) => {
        const timer = setTimeout(() => {
          arrivals.off('mail', onMail);
          reject(new Error(`no matching e-mail within ${timeoutMs} ms (${mails.length} received)`));
        }, timeoutMs);
        const onMail = () => {
          const mail = take(match);
          if (!mail) return;
          clearTimeout(timer);
          arrivals.off('mail', onMail);
          resolve(mail);
        };
        arrivals.on('mail', onMail);
      });
    },
    refuse(on) {
      refusing = on;
    },
    get refused() {
      return refused;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
