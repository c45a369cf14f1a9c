// Applies the colour theme to the page: <html data-theme> (styles.css picks
// its colours by it), the native controls' color-scheme and the browser's
// theme-color. Started once by main.tsx; follows the system's scheme while the
// preference is "system", and a choice made in another tab.
import { onSystemThemeChange, resolvedTheme, THEME_STORAGE_KEY, type Theme } from './preference.ts';

/** The browser chrome's colour per theme (the sidebar's darkest background). */
export const THEME_COLORS: Record<Theme, string> = { dark: '#1e1f22', light: '#f2f3f5' };

export function applyTheme(theme: Theme = resolvedTheme()): void {
  document.documentElement.dataset.theme = theme;
  document.querySelector<HTMLMetaElement>('meta[name="color-scheme"]')?.setAttribute('content', theme);
  document.querySelector<HTMLMetaElement>('meta[name="theme-color"]')?.setAttribute('content', THEME_COLORS[theme]);
}

/** Applies the theme now and keeps it applied; answers how to stop (tests). */
export function startTheme(): () => void {
  applyTheme();
  const reapply = () => applyTheme();
  const stopSystem = onSystemThemeChange(reapply);
  const onStorage = (event: StorageEvent) => {
    if (event.key === THEME_STORAGE_KEY || event.key === null) reapply();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    stopSystem();
    window.removeEventListener('storage', onStorage);
  };
}
