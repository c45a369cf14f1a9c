// Which colour theme this browser shows: the one chosen in Settings, else the
// system's (prefers-color-scheme). Like the language, the choice belongs to
// the device (localStorage), not to the account: it is there on the sign-in
// screen. public/theme-boot.js reads the same key before the first paint.

export type Theme = 'light' | 'dark';
export type ThemePreference = Theme | 'system';

export const THEME_STORAGE_KEY = 'im.theme';

const isTheme = (value: unknown): value is Theme => value === 'light' || value === 'dark';

export function themePreference(): ThemePreference {
  try {
    const saved = localStorage.getItem(THEME_STORAGE_KEY);
    return isTheme(saved) ? saved : 'system';
  } catch {
    return 'system';
  }
}

export function saveThemePreference(preference: ThemePreference): void {
  try {
    if (preference === 'system') localStorage.removeItem(THEME_STORAGE_KEY);
    else localStorage.setItem(THEME_STORAGE_KEY, preference);
  } catch {
    // Storage refused (private mode): the choice lasts until the tab closes.
  }
}

const LIGHT_QUERY = '(prefers-color-scheme: light)';

/** The system's scheme: dark unless it asks for light (the app's look before themes). */
export function systemTheme(): Theme {
  return typeof matchMedia === 'function' && matchMedia(LIGHT_QUERY).matches ? 'light' : 'dark';
}

export function resolvedTheme(preference: ThemePreference = themePreference()): Theme {
  return preference === 'system' ? systemTheme() : preference;
}

/** Calls `listener` when the system's scheme changes; answers how to stop. */
export function onSystemThemeChange(listener: () => void): () => void {
  if (typeof matchMedia !== 'function') return () => undefined;
  const query = matchMedia(LIGHT_QUERY);
  query.addEventListener('change', listener);
  return () => query.removeEventListener('change', listener);
}
