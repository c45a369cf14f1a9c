// A client process's figures between two windows: every request's time and
// outcome by kind, store and broadcast times, missed messages. The
// coordinator takes (and resets) them every sample.
import type { WindowReport } from './agent-protocol.ts';
import { Histogram } from './histogram.ts';

const MAX_ERROR_SAMPLES = 5;

export class Recorder {
  #requests = new Map<string, Histogram>();
  #errors = new Map<string, number>();
  #errorSamples: string[] = [];
  #unanswered = 0;
  #actions = new Map<string, number>();
  #store = new Histogram();
  #broadcast = new Histogram();
  #missed = 0;

  request(kind: string, ms: number): void {
    let h = this.#requests.get(kind);
    if (!h) this.#requests.set(kind, (h = new Histogram()));
    h.record(ms);
  }

  /** A failed request; `answered`: it had an answer (non-2xx, failed ack), already timed with request(). */
  error(kind: string, description: string, answered: boolean): void {
    this.#errors.set(kind, (this.#errors.get(kind) ?? 0) + 1);
    if (!answered) this.#unanswered += 1;
    if (this.#errorSamples.length < MAX_ERROR_SAMPLES) this.#errorSamples.push(`${kind}: ${description}`);
  }

  action(kind: string): void {
    this.#actions.set(kind, (this.#actions.get(kind) ?? 0) + 1);
  }

  store(ms: number): void {
    this.#store.record(ms);
  }

  broadcast(ms: number): void {
    this.#broadcast.record(ms);
  }

  missed(n: number): void {
    this.#missed += n;
  }

  /** The window's figures; starts the next window. */
  take(users: number, connected: number): WindowReport {
    const cpu = process.cpuUsage();
    const report: WindowReport = {
      type: 'window',
      requests: Object.fromEntries([...this.#requests].map(([k, h]) => [k, h.toData()])),
      errors: Object.fromEntries(this.#errors),
      errorSamples: this.#errorSamples,
      unanswered: this.#unanswered,
      actions: Object.fromEntries(this.#actions),
      store: this.#store.toData(),
      broadcast: this.#broadcast.toData(),
      missed: this.#missed,
      users,
      connected,
      cpuMicros: cpu.user + cpu.system,
    };
    this.#requests = new Map();
    this.#errors = new Map();
    this.#errorSamples = [];
    this.#unanswered = 0;
    this.#actions = new Map();
    this.#store = new Histogram();
    this.#broadcast = new Histogram();
    this.#missed = 0;
    return report;
  }
}
