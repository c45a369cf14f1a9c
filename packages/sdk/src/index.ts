export {
  configSchema,
  DEFAULT_WEB_CLIENT_DIR,
  type Config,
  type ConfigEntry,
  type ConfigKey,
} from './config/schema.ts';
export { loadConfig, parseConfig, ConfigError, type AppConfig } from './config/load.ts';
export {
  describeConfig,
  configTableMarkdown,
  withConfigTable,
  maskUrlPassword,
  CONFIG_TABLE_BEGIN,
  CONFIG_TABLE_END,
} from './config/describe.ts';
export { ERROR_CATALOG, isErrorCode, type ErrorCode } from './errors/catalog.ts';
export { ImError, toHttpError, type ErrorBody, type HttpError } from './errors/im-error.ts';
export {
  notFound,
  forbidden,
  invalid,
  conflict,
  limitReached,
  unauthorized,
  unavailable,
  noFileStorage,
  type MissingThing,
} from './errors/helpers.ts';
export type { Ctx } from './context.ts';
export { defineActions, type ImAction, type ServedAction, type ServiceActions } from './service-actions.ts';
export { createLogger, type Logger } from './logger.ts';
export { requirePermission, lackingPermission } from './permissions.ts';
export { AuditLog, type AuditRecord } from './audit/audit-log.ts';
export { createBroker, type CreateBrokerOptions } from './broker/create-broker.ts';
export { callOnEveryNode } from './broker/every-node.ts';
export { connectMongo, pingMongo, isDuplicateKeyError, modelOn, DependencyUnavailableError } from './db/mongo.ts';
export {
  closeRedis,
  connectRedis,
  redisClientOptions,
  redisSentinelSettings,
  type RedisSentinelSettings,
} from './db/redis.ts';
export { parseHostPortList, formatHostPort, type HostPort } from './net/host-port-list.ts';
export { Readiness, type ReadinessCheck, type ReadinessReport } from './health/readiness.ts';
export { SERVICE_NAMES, SERVICES_USING_MONGO, type ServiceName } from './services.ts';
export {
  EVENTS,
  announce,
  publishEvent,
  emitToOne,
  dmMembersOf,
  type ConverseAudience,
  type CreatedAudience,
  type DmAudience,
  type GroupAudience,
  type EventName,
  type EventPayloads,
  type EventContext,
  type EventHandler,
  type ServiceEvents,
} from './events.ts';
export { userRoom, groupRoom, converseRoom, sessionRoom, isRoutedRoom } from './realtime/rooms.ts';
export { EVENT_ROOMS, isRoutedEvent, roomsOf, type RoutedEventName } from './realtime/event-rooms.ts';
export { RoomRouter, routeEventsByRoom, roomRouterOf } from './realtime/room-router.ts';
export { startTracing, serviceNameOf, type Tracing, type TraceCarrier } from './tracing/tracing.ts';
export {
  call,
  SESSION_CHECK_BATCH,
  type ActionMap,
  type ActionName,
  type ActionParams,
  type ActionResult,
  type ActionCaller,
  type AccountMail,
  type MailRecipient,
} from './actions.ts';
export { endpoint, type Endpoint, type HttpMethod, type ApiTag } from './api/endpoint.ts';
export type { Params } from './validation/infer.ts';
export { codePointLength, CodePointValidator } from './validation/code-point-validator.ts';
export { batchLoader, groupBy, type BatchLoaderOptions } from './batch/batch-loader.ts';
export type { AppContext, ServiceFactory } from './app-context.ts';
export { TokenService, type TokenClaims, type SignOptions } from './auth/tokens.ts';
export { FileUrlSigner, type FileVariant } from './auth/file-urls.ts';
export { ExportUrlSigner } from './auth/export-urls.ts';
export { LinkTokens, LINK_TTL_SECONDS, type LinkClaims, type LinkPurpose } from './auth/link-tokens.ts';
export { parseTrustProxy, parseHostList, type TrustProxy } from './net/address-lists.ts';
export { createCache, MemoryCache, RedisCache, type KvCache } from './cache/kv-cache.ts';
export { STALE_SWEEP_MS, sweepStale, sweepStaleNow } from './cache/stale-sweeper.ts';
export { backingBytesOf, withOwnObjectIds } from './memory/own-object-ids.ts';
export {
  type SetIndexStore,
  type SetChange,
  type Scored,
  type IndexRead,
  type RebuildSession,
} from './set-index/set-index-store.ts';
export { MemorySetIndexStore } from './set-index/memory-store.ts';
export { RedisSetIndexStore } from './set-index/redis-store.ts';
export {
  entriesFrom,
  loadInChunks,
  rebuildAtStart,
  rebuildSetIndex,
  setsOf,
  type IndexEntry,
  type IndexSource,
} from './set-index/rebuild.ts';
export { createSetIndexStore } from './set-index/create.ts';
export { RateLimiter, type RateLimitRule } from './rate-limit/rate-limiter.ts';
export {
  RATE_LIMITS,
  RATE_LIMIT_NAMES,
  parseRateLimitOverrides,
  type RateLimitName,
  type RateLimitPolicy,
  type RateLimitOverrides,
} from './rate-limit/policy.ts';
export { RateLimits, keyFor as rateLimitKey, addressKey as rateLimitAddressKey } from './rate-limit/rate-limits.ts';
export { clientAddressKey } from './rate-limit/address-key.ts';
export { rateLimitMiddleware, type RateLimitedAction } from './rate-limit/middleware.ts';
export {
  rateLimitTableMarkdown,
  withRateLimitTable,
  RATE_LIMIT_TABLE_BEGIN,
  RATE_LIMIT_TABLE_END,
} from './rate-limit/describe.ts';
export {
  OBJECT_ID,
  idParam,
  strict,
  notBlank,
  limitParam,
  searchText,
  callerId,
  escapeRegex,
  type CallerMeta,
} from './validation/params.ts';
export { StorageUnavailableError, type ObjectStorage, type ByteRange } from './storage/object-storage.ts';
export { LocalStorage } from './storage/local-storage.ts';
export { S3Storage } from './storage/s3-storage.ts';
export { createStorage } from './storage/create-storage.ts';
export { sniffMime, isInlineSafe, SNIFF_BYTES } from './storage/sniff.ts';
export {
  OutboundGuard,
  OutboundRefusedError,
  OUTBOUND_REFUSED,
  type OutboundOptions,
  type OutboundResponse,
  type Lookup,
} from './net/outbound.ts';
export { firstLink } from './text/first-link.ts';
export { normalizeEmoji, UNICODE_EMOJI, unicodeForName, unicodeShortcodes } from './text/emoji-names.ts';
export { outboundGuardFor, outboundAllowFor, type OutboundPurpose } from './net/outbound-purpose.ts';
export { isPublicAddress, AllowList } from './net/ip-ranges.ts';
export {
  MemoryQueue,
  RedisStreamQueue,
  type DeliveryQueue,
  type DeliveryJob,
  type Outcome,
  type Worker,
  type RedisStreamQueueOptions,
  type PerKeyLimit,
} from './delivery/queue.ts';
export { CircuitBreaker } from './delivery/circuit-breaker.ts';
