import { ConfigError, DependencyUnavailableError, loadConfig, type AppConfig } from '@im/sdk';

/** One clear line on stderr, then exit 1: for bad config and unreachable dependencies. */
export function die(err: unknown, who = 'im-platform'): never {
  const message =
    err instanceof ConfigError || err instanceof DependencyUnavailableError
      ? err.message
      : `failed to start: ${err instanceof Error ? err.message : String(err)}`;
  process.stderr.write(`${who}: ${message}\n`);
  process.exit(1);
}

export function loadConfigOrDie(): AppConfig {
  try {
    return loadConfig();
  } catch (err) {
    die(err);
  }
}

/**
 * Keeps the process alive until SIGINT/SIGTERM (the servers and children the
 * test kit starts are unref'd), then runs `stop` once, bounded by
 * `timeoutMs`, and exits. Returns the function for other reasons to stop.
 */
export function runUntilStopped(
  stop: (why: string) => Promise<void>,
  timeoutMs: number,
  onTimeout: () => void,
): (code: number, why: string) => Promise<never> {
  const keepAlive = setInterval(() => undefined, 1 << 30);
  let stopping: Promise<void> | undefined;
  const shutdown = async (code: number, why: string): Promise<never> => {
    if (!stopping) {
      const force = setTimeout(() => {
        onTimeout();
        process.exit(code || 1);
      }, timeoutMs);
      force.unref();
      stopping = stop(why);
    }
    await stopping;
    clearInterval(keepAlive);
    process.exit(code);
  };
  // A repeated signal (a process group signalled, then a supervisor forwarding
  // the same) joins the stop in progress instead of killing it half-way.
  process.on('SIGINT', () => void shutdown(0, 'SIGINT'));
  process.on('SIGTERM', () => void shutdown(0, 'SIGTERM'));
  return shutdown;
}
