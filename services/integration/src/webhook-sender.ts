import { CircuitBreaker, OutboundRefusedError, type ActionCaller, type DeliveryJob, type Outcome } from '@im/sdk';
import { Types } from 'mongoose';
import type { IntegrationDeps } from './deps.ts';
import { hookHealth } from './hook-health.ts';
import { WAITING_STATUSES, type DeliveryDoc } from './models.ts';
import { parseAnswer } from './answer.ts';
import { postAsBot } from './post-as-bot.ts';
import { signedHeaders } from './signing.ts';
import { withTimestamp, type WebhookJobData } from './webhook-job.ts';

/**
 * Per hook: after 5 failures in a row its deliveries wait a minute before one
 * tries again. Keyed by hook id; `success(hookId)` forgets a hook's failures.
 */
export const hookCircuits = (): CircuitBreaker => new CircuitBreaker(5, 60_000);

/** Retries go on at least this long after the event (then the delivery is given up). */
const RETRY_FOR_MS = 3_600_000;
/** 10 s, 30 s, 90 s, 4.5 min, 13.5 min, then every 30 min (with ±20% jitter): given up after about 80 minutes. */
const retryDelayMs = (attempts: number): number =>
  Math.min(10_000 * 3 ** attempts, 1_800_000) * (0.8 + Math.random() * 0.4);
/** What is kept of a receiver's answer: enough for a `text` to post. */
const ANSWER_BYTES = 64 * 1024;

type Log = Partial<Pick<DeliveryDoc, 'status' | 'responseStatus' | 'lastError' | 'nextAttemptAt'>>;

const WAITING = new Set<string>(WAITING_STATUSES);
const settled = (status: DeliveryDoc['status'] | undefined) => status !== undefined && !WAITING.has(status);

/**
 * Makes one attempt of a delivery and says what comes next: done (answered
 * 2xx, refused by the guard, the hook gone or disabled, dropped from its
 * backlog, or given up) or a retry. Each attempt is written to the delivery
 * log, whose entry also holds the body for retries. A 2xx answer whose JSON has `text`
 * is posted by the hook's bot.
 */
export function webhookSender(
  {
    app,
    models,
    store,
    directory,
    outbound,
  }: Pick<IntegrationDeps, 'app' | 'models' | 'store' | 'directory' | 'outbound'>,
  broker: ActionCaller & { broadcast(event: string, payload?: unknown): unknown },
  logger: { warn(...args: unknown[]): void },
  breaker: CircuitBreaker,
) {
  const health = hookHealth(models, store, broker, app.config.webhookDisableAfterMs);
  const log = (deliveryId: string, set: Log, attempted = true) => {
    // A settled entry keeps its log line, not the body: only waiting ones are ever sent.
    const unset = { ...(set.nextAttemptAt ? {} : { nextAttemptAt: 1 }), ...(settled(set.status) ? { body: 1 } : {}) };
    return models.deliveries.updateOne(
      { _id: deliveryId },
      {
        $set: set,
        ...(attempted ? { $inc: { attempts: 1 } } : {}),
        ...(Object.keys(unset).length > 0 ? { $unset: unset } : {}),
      },
    );
  };

  /** A retry waits without the body (small in memory and in Redis): it reads it from the log entry. */
  const later = (job: DeliveryJob<WebhookJobData>, outcome: Outcome): Outcome => {
    delete job.data.body;
    return outcome;
  };

  return async (job: DeliveryJob<WebhookJobData>): Promise<Outcome> => {
    const { deliveryId, hookId, groupId, at } = job.data;
    const hook = (await directory.forGroup(groupId)).outgoing.find((h) => h._id.toHexString() === hookId);
    if (!hook) {
      await log(deliveryId, { status: 'failed', lastError: 'The webhook was removed' }, false);
      return { done: true };
    }
    if (hook.disabled) {
      await log(deliveryId, { status: 'dropped', lastError: 'Dropped: the webhook is disabled' }, false);
      return { done: true };
    }
    const wait = breaker.waitFor(hookId);
    let body = job.data.body;
    // A first look behind an open circuit only puts the job aside, without its body, until
    // the circuit lets one through: no read of the log for each new message of a dead hook.
    if (wait > 0 && body !== undefined) return later(job, { retryInMs: wait, countAttempt: false });
    // A healthy hook's first attempt has its body with it. A retry, or any attempt for a
    // failing hook (whose backlog may have dropped this one meanwhile), reads the entry.
    if (body === undefined || hook.failingSince) {
      const entry = await models.deliveries.collection.findOne<Pick<DeliveryDoc, 'status' | 'body'>>(
        { _id: new Types.ObjectId(deliveryId) },
        { projection: { status: 1, body: 1 } },
      );
      if (!entry?.body || !WAITING.has(entry.status)) return { done: true };
      body = entry.body;
    }
    if (wait > 0) {
      // Its circuit is open (the hook has been tried within the last minute): past the hour, give up.
      if (Date.now() - at >= RETRY_FOR_MS) {
        await log(deliveryId, { status: 'failed', lastError: 'Given up: the receiver kept failing' }, false);
        return { done: true };
      }
      return later(job, { retryInMs: wait, countAttempt: false });
    }

    const timestamp = Math.floor(Date.now() / 1000);
    const raw = withTimestamp(body, timestamp);
    let status = 0;
    let answer: Buffer | undefined;
    let error = '';
    try {
      const res = await outbound.request(new URL(hook.url), {
        method: 'POST',
        headers: signedHeaders(hook.secret, raw, timestamp, deliveryId),
        body: raw,
        maxBytes: ANSWER_BYTES,
      });
      status = res.status;
      answer = res.body;
    } catch (err) {
      if (err instanceof OutboundRefusedError) {
        // No later attempt could be allowed: dropped, never retried.
        await log(deliveryId, { status: 'failed', lastError: `Refused: ${err.message}` }); // the generic words, not the detail
        return { done: true };
      }
      error = err instanceof Error ? err.message : String(err);
    }

    if (status >= 200 && status < 300) {
      breaker.success(hookId);
      await log(deliveryId, { status: 'delivered', responseStatus: status });
      await health.succeeded(hook);
      const text = parseAnswer(answer)?.text;
      if (text) {
        const converseId = (JSON.parse(body) as { converseId: string }).converseId;
        await postAsBot(broker, { botId: hook.botId.toHexString(), groupId }, converseId, text).catch((err: unknown) =>
          logger.warn('could not post a webhook answer', err),
        );
      }
      return { done: true };
    }
    breaker.failure(hookId);
    const lastError = error || `The receiver answered ${status}`;
    const failed: Log = { lastError, ...(status ? { responseStatus: status } : {}) };
    if (await health.failed(hook)) {
      // Failing for too long: the hook is disabled now, and this delivery goes with what it had waiting.
      await log(deliveryId, { ...failed, status: 'dropped' });
      return { done: true };
    }
    if (Date.now() - at >= RETRY_FOR_MS) {
      await log(deliveryId, { ...failed, status: 'failed' });
      return { done: true };
    }
    const delay = retryDelayMs(job.attempts);
    await log(deliveryId, { ...failed, status: 'retrying', nextAttemptAt: new Date(Date.now() + delay) });
    return later(job, { retryInMs: delay, countAttempt: true });
  };
}
