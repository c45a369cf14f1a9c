import type { Redis } from 'ioredis';

/**
 * A Redis host that dies without closing its connections (power lost, link
 * cut) answers nothing, and the kernel keeps resending for many minutes
 * before it gives the connection up: every command waits meanwhile, and a
 * client through Sentinel never asks for the new master. These make such a
 * silence end a connection instead: ioredis then reconnects (through
 * Sentinel, to the master named now) and resends what was unanswered.
 */

/** Pings every `everyMs`; a ping unanswered after `timeoutMs` drops the connection. Returns the stop. */
export function watchRedisLiveness(redis: Redis, { everyMs = 2000, timeoutMs = 3000 } = {}): () => void {
  let checking = false;
  const timer = setInterval(() => {
    if (checking || redis.status !== 'ready') return;
    checking = true;
    void answeredWithin(redis, redis.ping(), timeoutMs)
      .catch(() => undefined)
      .finally(() => {
        checking = false;
      });
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * `command`'s answer, or, when none comes within `ms` on a connection that
 * is up, the connection dropped (to be made again) and a rejection.
 */
export async function answeredWithin<T>(redis: Redis, command: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const silence = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      if (redis.status === 'ready') redis.disconnect(true);
      reject(new Error(`Redis did not answer within ${ms} ms`));
    }, ms);
  });
  try {
    return await Promise.race([command, silence]);
  } finally {
    clearTimeout(timer);
  }
}
