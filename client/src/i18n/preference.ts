// Which language this browser shows the app in: the one chosen in Settings,
// else the first of the browser's languages the app speaks. The choice is
// the device's (kept in localStorage), not the account's: it survives
// signing out and is there on the sign-in screen.
import { isLanguage, pickLanguage, type Language } from './languages.ts';

const STORAGE_KEY = 'im.language';

export type LanguagePreference = Language | 'system';

export function languagePreference(): LanguagePreference {
  try {
    const saved = localStorage.getItem(STORAGE_KEY);
    return isLanguage(saved) ? saved : 'system';
  } catch {
    return 'system';
  }
}

export function saveLanguagePreference(preference: LanguagePreference): void {
  try {
    if (preference === 'system') localStorage.removeItem(STORAGE_KEY);
    else localStorage.setItem(STORAGE_KEY, preference);
  } catch {
    // Storage refused (private mode): the choice lasts until the tab closes.
  }
}

/** The browser's own pick, whatever was chosen in Settings. */
export const browserLanguage = (): Language =>
  pickLanguage(typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]));

export function resolvedLanguage(preference: LanguagePreference = languagePreference()): Language {
  return preference === 'system' ? browserLanguage() : preference;
}
