// The tests that make calls share this: a real LiveKit server on loopback
// whose webhooks go to the node they start, and that node with calls on.
import { freePort, startLiveKit, type LiveKitServerHandle } from '@im/dev-servers';
import { startApi, type ApiHarness } from '../api/harness.ts';

/** LiveKit first (it must know the webhook's port), then the API node on that port with calls on. */
export async function startApiWithLiveKit(
  fileUrl: string,
  extra: Record<string, string> = {},
): Promise<{ api: ApiHarness; livekit: LiveKitServerHandle }> {
  const port = await freePort();
  const livekit = await startLiveKit({ webhookUrls: [`http://127.0.0.1:${port}/api/livekit/webhook`] });
  const api = await startApi(fileUrl, {
    PORT: String(port),
    VOICE: 'on',
    LIVEKIT_URL: livekit.url,
    LIVEKIT_API_KEY: livekit.apiKey,
    LIVEKIT_API_SECRET: livekit.apiSecret,
    ...extra,
  }).catch(async (err: unknown) => {
    await livekit.stop();
    throw err;
  });
  return { api, livekit };
}
