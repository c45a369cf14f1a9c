import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { findBinary, newLiveKitKeys, startLiveKit, type LiveKitServerHandle } from '@im/dev-servers';
import type { AppConfig, Logger } from '@im/sdk';

/** The started LiveKit server's key pair, kept in DATA_DIR so tokens stay valid across restarts. */
export const LIVEKIT_KEYS_FILE = 'livekit-keys.json';

type LiveKitConfig = Pick<
  AppConfig,
  'dataDir' | 'voice' | 'livekitUrl' | 'livekitBind' | 'livekitNodeIp' | 'livekitPort' | 'livekitRtcPort' | 'host'
>;

/** The key pair in DATA_DIR, made the first time. */
function keysIn(dataDir: string): { apiKey: string; apiSecret: string } {
  const file = join(resolve(dataDir), LIVEKIT_KEYS_FILE);
  try {
    const kept = JSON.parse(readFileSync(file, 'utf8')) as { apiKey?: unknown; apiSecret?: unknown };
    if (typeof kept.apiKey === 'string' && typeof kept.apiSecret === 'string' && kept.apiSecret.length >= 32)
      return { apiKey: kept.apiKey, apiSecret: kept.apiSecret };
  } catch {
    // Not made yet: below.
  }
  const keys = newLiveKitKeys();
  mkdirSync(resolve(dataDir), { recursive: true });
  writeFileSync(file, `${JSON.stringify(keys)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return keys;
}

/**
 * For a node that runs the call service with no LIVEKIT_URL: livekit-server
 * (built by setup) on LIVEKIT_BIND, its webhooks posted to `webhookUrl` (a
 * gateway), keys kept in DATA_DIR. Without the binary, voice is unavailable
 * and the node says so; it starts anyway.
 */
export async function startLocalLiveKit(
  config: LiveKitConfig,
  webhookUrl: string,
  logger: Logger,
): Promise<LiveKitServerHandle | undefined> {
  if (config.voice !== 'on' || config.livekitUrl) return undefined;
  if (!findBinary('livekit-server')) {
    logger.warn(
      'voice and video are unavailable: livekit-server was not found (bash scripts/setup.sh builds it; or set LIVEKIT_URL, or VOICE=off)',
    );
    return undefined;
  }
  let livekit: LiveKitServerHandle;
  try {
    livekit = await startLiveKit({
      bind: config.livekitBind,
      ...(config.livekitNodeIp ? { nodeIp: config.livekitNodeIp } : {}),
      port: config.livekitPort,
      rtcPort: config.livekitRtcPort,
      ...keysIn(config.dataDir),
      webhookUrls: [webhookUrl],
    });
  } catch (err) {
    // Calls are one feature: the rest of the platform starts without them.
    logger.error({ err }, 'voice and video are unavailable: livekit-server did not start (is LIVEKIT_PORT taken?)');
    return undefined;
  }
  logger.info(
    `LIVEKIT_URL unset: started livekit-server at ${livekit.url} (media on port ${livekit.rtcPort} UDP and TCP), keys in ${join(config.dataDir, LIVEKIT_KEYS_FILE)}`,
  );
  return livekit;
}

/** The settings that point the platform at a started LiveKit server. */
export const liveKitSettings = (livekit: LiveKitServerHandle): Partial<AppConfig> => ({
  livekitUrl: livekit.url,
  livekitApiKey: livekit.apiKey,
  livekitApiSecret: livekit.apiSecret,
});
