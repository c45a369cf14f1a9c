import { Counter, type Registry } from 'prom-client';
import type { AppContext } from '../app-context.ts';
import { OutboundGuard, type OutboundOptions } from './outbound.ts';

/**
 * What an outbound request is for. Each user-supplied kind has its own allow
 * list (OUTBOUND_ALLOW_PUSH, _WEBHOOKS, _PREVIEWS), so opening an internal
 * push proxy does not also let webhooks or link previews reach it. Single
 * sign-on's provider is the operator's own setting, not a user's: it has no
 * list of its own and takes OUTBOUND_ALLOW.
 */
export type OutboundPurpose = 'push' | 'webhooks' | 'previews' | 'oidc';

type AllowConfig = Pick<
  AppContext['config'],
  'outboundAllow' | 'outboundAllowPush' | 'outboundAllowWebhooks' | 'outboundAllowPreviews'
>;

/** The purpose's own list when its variable is set (even empty), else OUTBOUND_ALLOW. */
export function outboundAllowFor(config: AllowConfig, purpose: OutboundPurpose): readonly string[] {
  const own = {
    push: config.outboundAllowPush,
    webhooks: config.outboundAllowWebhooks,
    previews: config.outboundAllowPreviews,
    oidc: undefined,
  }[purpose];
  return own ?? config.outboundAllow;
}

const REFUSED_METRIC = 'im_outbound_refused_total';

/** One counter per registry, shared by the guards of every service in the process. */
function refusedCounter(registry: Registry): Counter<'purpose'> {
  return (
    (registry.getSingleMetric(REFUSED_METRIC) as Counter<'purpose'> | undefined) ??
    new Counter({
      name: REFUSED_METRIC,
      help: 'Outbound requests and registrations refused by the outbound guard',
      labelNames: ['purpose'] as const,
      registers: [registry],
    })
  );
}

/**
 * The guard for one purpose: its allow list, OUTBOUND_TIMEOUT_MS unless
 * given, and each refusal's detail (what a name resolved to) logged and
 * counted here, never told to the user.
 */
export function outboundGuardFor(
  app: Pick<AppContext, 'config' | 'logger' | 'metrics'>,
  purpose: OutboundPurpose,
  options: Partial<Omit<OutboundOptions, 'allow' | 'onRefused'>> = {},
): OutboundGuard {
  const refused = refusedCounter(app.metrics);
  return new OutboundGuard({
    timeoutMs: app.config.outboundTimeoutMs,
    ...options,
    allow: outboundAllowFor(app.config, purpose),
    onRefused: (detail) => {
      refused.inc({ purpose });
      app.logger.info({ purpose, detail }, 'outbound destination refused');
    },
  });
}
