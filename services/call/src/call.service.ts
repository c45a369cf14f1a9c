import { defineActions, type AppContext, type ServiceEvents, type ServiceFactory } from '@im/sdk';
import { callActions } from './call-actions.ts';
import { startReconciling } from './call-reconciler.ts';
import { CallStore } from './call-store.ts';
import type { CallDeps } from './deps.ts';
import { LiveKit } from './livekit.ts';
import { callModel } from './models.ts';
import { membershipEvents } from './membership-events.ts';
import { webhookActions } from './webhook-actions.ts';

/** The LiveKit server the configuration names, or none (voice off, or no server known). */
function liveKitOf({ config }: AppContext): LiveKit | undefined {
  const { voice, livekitUrl, livekitApiKey, livekitApiSecret, livekitPublicUrl } = config;
  if (voice !== 'on' || !livekitUrl || !livekitApiKey || !livekitApiSecret) return undefined;
  return new LiveKit({
    url: livekitUrl,
    publicUrl: livekitPublicUrl ?? livekitUrl,
    apiKey: livekitApiKey,
    apiSecret: livekitApiSecret,
  });
}

/**
 * Voice and video: tokens for LiveKit rooms (one per voice panel or DM,
 * named by its converse), and who is in each call, from LiveKit's webhooks.
 * The media never passes through this platform.
 */
export const createCallService: ServiceFactory = (app: AppContext) => {
  const calls = callModel(app.mongo!);
  const deps: CallDeps = { app, store: new CallStore(calls), livekit: liveKitOf(app) };
  let stopReconciling: (() => void) | undefined;
  return {
    name: 'call',
    async started() {
      await calls.createIndexes();
      if (deps.livekit) {
        const broker = this.broker;
        stopReconciling = startReconciling(deps.store, deps.livekit, broker, app.logger, () =>
          broker.waitForServices(['chat']).catch(() => undefined),
        );
      } else if (app.config.voice === 'on')
        app.logger.warn(
          'voice and video are unavailable: no LiveKit server (set LIVEKIT_URL, or run setup to build one)',
        );
    },
    stopped() {
      stopReconciling?.();
    },
    actions: defineActions('call', { ...callActions(deps), ...webhookActions(deps) }),
    events: membershipEvents(deps) satisfies ServiceEvents,
  };
};
