export type ReadinessCheck = () => Promise<void>;

export interface ReadinessReport {
  ready: boolean;
  checks: Record<string, 'ok' | string>;
}

/** The dependencies this node needs, each with a probe; /ready runs them all. */
export class Readiness {
  readonly #checks = new Map<string, ReadinessCheck>();

  add(name: string, check: ReadinessCheck): void {
    this.#checks.set(name, check);
  }

  /** Runs every probe in parallel, each bounded by `timeoutMs`. */
  async run(timeoutMs = 2000): Promise<ReadinessReport> {
    const entries = await Promise.all(
      [...this.#checks].map(async ([name, check]) => [name, await probe(check, timeoutMs)] as const),
    );
    const checks = Object.fromEntries(entries);
    return { ready: entries.every(([, result]) => result === 'ok'), checks };
  }
}

async function probe(check: ReadinessCheck, timeoutMs: number): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return 'ok';
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  } finally {
    clearTimeout(timer);
  }
}
