import { createHash } from 'node:crypto';
import { ImError, invalid } from '@im/sdk';
import {
  AccessToken,
  RoomServiceClient,
  TokenVerifier,
  TrackSource,
  WebhookReceiver,
  type ParticipantInfo,
  type TrackInfo,
  type WebhookEvent,
} from 'livekit-server-sdk';

/** Where the LiveKit server is and the key pair it trusts. */
export interface LiveKitSettings {
  /** As this server's nodes reach it (ws:// or wss://). */
  url: string;
  /** As browsers reach it. */
  publicUrl: string;
  apiKey: string;
  apiSecret: string;
}

/** A call's access token lasts an hour; LiveKit renews it for connected participants. */
const TOKEN_TTL = '1h';

/** The LiveKit server: tokens, webhook checks and the few room commands the platform needs. */
export class LiveKit {
  readonly settings: LiveKitSettings;
  readonly #receiver: WebhookReceiver;
  readonly #verifier: TokenVerifier;
  readonly #rooms: RoomServiceClient;

  constructor(settings: LiveKitSettings) {
    this.settings = settings;
    this.#receiver = new WebhookReceiver(settings.apiKey, settings.apiSecret);
    this.#verifier = new TokenVerifier(settings.apiKey, settings.apiSecret);
    this.#rooms = new RoomServiceClient(httpUrlOf(settings.url), settings.apiKey, settings.apiSecret);
  }

  /** A token to join `room` as `userId`: listening always, speaking and showing video when `canPublish`. */
  token(userId: string, room: string, canPublish: boolean): Promise<string> {
    const token = new AccessToken(this.settings.apiKey, this.settings.apiSecret, { identity: userId, ttl: TOKEN_TTL });
    token.addGrant({ room, roomJoin: true, canSubscribe: true, canPublish, canPublishData: false });
    return token.toJwt();
  }

  /**
   * A webhook's event once its signature checks out: a JWT signed with the
   * API secret whose `sha256` claim is the body's hash. 401 otherwise; 400
   * for a signed body that is not an event.
   */
  async verify(body: string, authorization: string): Promise<WebhookEvent> {
    const claims = await this.#verifier.verify(authorization.replace(/^Bearer\s+/i, '')).catch(() => undefined);
    const hash = createHash('sha256').update(body, 'utf8').digest('base64');
    if (!claims || claims.sha256 !== hash)
      throw new ImError('IM_ERR_UNAUTHORIZED', 'The webhook signature does not match');
    try {
      return await this.#receiver.receive(body, undefined, true);
    } catch (err) {
      if (err instanceof SyntaxError) throw new ImError('IM_ERR_BAD_JSON');
      throw invalid('Not a LiveKit webhook event');
    }
  }

  /** Takes someone out of a call (they left the group, or were deactivated). Gone already: nothing to do. */
  async removeParticipant(room: string, userId: string): Promise<void> {
    await this.#rooms.removeParticipant(room, userId).catch(ignoreNotFound);
  }

  /** Lets someone in a call speak and show video, or only listen (a mute in the group, a role change). */
  async allowPublishing(room: string, userId: string, canPublish: boolean): Promise<void> {
    await this.#rooms
      .updateParticipant(room, userId, {
        permission: { canSubscribe: true, canPublish, canPublishData: false },
      })
      .catch(ignoreNotFound);
  }

  /** Which of `rooms` LiveKit has open now. */
  async openRooms(rooms: string[]): Promise<Set<string>> {
    if (rooms.length === 0) return new Set();
    return new Set((await this.#rooms.listRooms(rooms)).map((r) => r.name));
  }

  /** The connections (sids) in a room now. */
  async connections(room: string): Promise<Set<string>> {
    return new Set((await this.#rooms.listParticipants(room)).map((p) => p.sid));
  }

  /** Ends a call for everyone in it (a declined DM call, a deleted panel or group). */
  async endRoom(room: string): Promise<void> {
    await this.#rooms.deleteRoom(room).catch(ignoreNotFound);
  }
}

const httpUrlOf = (url: string) => url.replace(/^ws(s?):\/\//, 'http$1://');

const ignoreNotFound = (err: unknown) => {
  const status = (err as { status?: number }).status;
  if (status !== 404) throw err;
};

/**
 * What a participant publishes, from LiveKit's view of them and the track
 * the event is about (a webhook's participant may not list it yet, or still
 * list one just unpublished).
 */
export function publishedSources(
  participant: ParticipantInfo,
  event: string,
  track?: TrackInfo,
): { audio: boolean; video: boolean; screen: boolean } {
  const tracks = participant.tracks.filter((t) => t.sid !== track?.sid);
  if (track && event === 'track_published') tracks.push(track);
  const sources = new Set(tracks.map((t) => t.source));
  return {
    audio: sources.has(TrackSource.MICROPHONE),
    video: sources.has(TrackSource.CAMERA),
    screen: sources.has(TrackSource.SCREEN_SHARE),
  };
}
