import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError, type AppConfig } from '@im/sdk';
import webPush from 'web-push';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  subject: string;
}

/** VAPID keys from config; in development/test a pair is made once and kept in DATA_DIR. */
export function resolveVapidKeys(config: AppConfig): VapidKeys {
  const subject = config.vapidSubject;
  if (config.vapidPublicKey && config.vapidPrivateKey)
    return { publicKey: config.vapidPublicKey, privateKey: config.vapidPrivateKey, subject };
  if (config.vapidPublicKey || config.vapidPrivateKey)
    throw new ConfigError('VAPID_PRIVATE_KEY', 'and VAPID_PUBLIC_KEY must be set together');
  if (config.nodeEnv === 'production')
    throw new ConfigError(
      'VAPID_PUBLIC_KEY',
      'and VAPID_PRIVATE_KEY are required when NODE_ENV=production (npx web-push generate-vapid-keys)',
    );
  if (config.nodeEnv === 'test') return { ...webPush.generateVAPIDKeys(), subject };
  const file = join(resolve(config.dataDir), '.vapid.json');
  try {
    return { ...(JSON.parse(readFileSync(file, 'utf8')) as { publicKey: string; privateKey: string }), subject };
  } catch {
    const keys = webPush.generateVAPIDKeys();
    mkdirSync(resolve(config.dataDir), { recursive: true });
    writeFileSync(file, JSON.stringify(keys), { mode: 0o600 });
    return { ...keys, subject };
  }
}
