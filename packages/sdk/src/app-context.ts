import type { Connection } from 'mongoose';
import type { Redis } from 'ioredis';
import type { Registry } from 'prom-client';
import type { ServiceSchema } from 'moleculer';
import type { AppConfig } from './config/load.ts';
import type { Readiness } from './health/readiness.ts';
import type { ObjectStorage } from './storage/object-storage.ts';
import type { Logger } from './logger.ts';
import type { RateLimits } from './rate-limit/rate-limits.ts';
import type { RoomRouter } from './realtime/room-router.ts';
import type { Tracing } from './tracing/tracing.ts';

/**
 * What a process shares with the services it runs. Services are factories
 * over this context, so tests can hand them isolated databases and prefixes.
 */
export interface AppContext {
  config: AppConfig;
  logger: Logger;
  /** Present when this process runs a service that stores data. */
  mongo?: Connection;
  /** Present when REDIS_URL is set. */
  redis?: Redis;
  /** Present when this process runs the gateway or the file service. */
  storage?: ObjectStorage;
  readiness: Readiness;
  metrics: Registry;
  /** The rate-limit policy's enforcer (actions use it through the middleware; raw handlers directly). */
  rateLimits: RateLimits;
  /** Present in a cluster with FANOUT_ROUTING=rooms: realtime events travel by room over NATS. */
  roomRouter?: RoomRouter;
  /** Present when OTEL_EXPORTER_OTLP_ENDPOINT is set. */
  tracing?: Tracing;
}

export type ServiceFactory = (app: AppContext) => ServiceSchema;
