import type { AuthOptions, RegistrationMode } from '@im/protocol';
import { http } from '../api/http.ts';

/**
 * Who may register here (GET /api/auth/options, no sign-in needed). A server
 * that does not answer it is taken as open, as servers were before the setting.
 */
export async function loadRegistrationMode(): Promise<RegistrationMode> {
  try {
    const options = await http.get<AuthOptions>('/api/auth/options');
    return options.registration;
  } catch {
    return 'open';
  }
}
