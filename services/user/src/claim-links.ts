import { randomBytes } from 'node:crypto';
import type { ClaimLink } from '@im/protocol';
import type { UserDeps } from './deps.ts';
import { publicBase } from './email-links.ts';
import type { UserDoc } from './models.ts';

/** A fresh claim nonce: what the newest claim link of an imported account is bound to. */
export const newClaimNonce = (): string => randomBytes(16).toString('base64url');

/** When a link token expires (its `exp`), as the token itself says. */
function expiryOf(token: string): string {
  const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { exp: number };
  return new Date(payload.exp * 1000).toISOString();
}

/** The web app's claim page for an imported account, bound to the nonce just stored on it (7 days). */
export async function claimLinkFor(
  deps: Pick<UserDeps, 'app' | 'links'>,
  doc: Pick<UserDoc, '_id'>,
  nonce: string,
): Promise<ClaimLink> {
  const token = await deps.links.sign('claim-account', { userId: doc._id.toHexString(), bound: nonce });
  return { url: `${publicBase(deps.app)}/claim?token=${token}`, expiresAt: expiryOf(token) };
}
