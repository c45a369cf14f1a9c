/** What the main thread and the encryption workers say to each other. */

/** One notification to encrypt: the subscription's keys (base64url) and the JSON text. */
export interface EncryptItem {
  p256dh: string;
  auth: string;
  payload: string;
}

/** Every request of one event-loop turn for one worker goes as one message. */
export interface EncryptBatch {
  id: number;
  items: EncryptItem[];
}

/**
 * The answer: every body in one transferred buffer (`ends[i]` is where body i
 * stops), and per item either null or why it failed (`invalid`: the keys
 * cannot be used, so no attempt ever will succeed).
 */
export interface EncryptResult {
  id: number;
  bodies: ArrayBuffer;
  ends: number[];
  errors: Array<null | { invalid: boolean; message: string }>;
}
