import type { AppContext } from '@im/sdk';
import type { CallStore } from './call-store.ts';
import type { LiveKit } from './livekit.ts';

export interface CallDeps {
  app: AppContext;
  store: CallStore;
  /** The LiveKit server; undefined when voice is off or no server is known (joining answers 503). */
  livekit: LiveKit | undefined;
}
