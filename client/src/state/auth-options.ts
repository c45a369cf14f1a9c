import type { AuthOptions } from '@im/protocol';
import { api } from '../api/api.ts';

/**
 * What the sign-in screen offers (GET /api/auth/options, no sign-in needed):
 * who may register, and single sign-on's button. A server that does not
 * answer it is taken as open without single sign-on, as servers were before.
 */
export async function loadAuthOptions(): Promise<AuthOptions> {
  try {
    return await api.call('user.authOptions');
  } catch {
    return { registration: 'open' };
  }
}
