// The app's one i18next instance: ICU messages (plurals, selects, numbers and
// dates in the message itself), the three catalogs bundled, English behind
// every other language.
import i18next, { type i18n as I18n } from 'i18next';
import ICU from 'i18next-icu';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, htmlLangOf, type Language } from './languages.ts';
import { de } from './locales/de/index.ts';
import { en } from './locales/en/index.ts';
import { zh } from './locales/zh/index.ts';
import { resolvedLanguage } from './preference.ts';

export const i18n: I18n = i18next.createInstance();

void i18n
  .use(ICU)
  .use(initReactI18next)
  .init({
    resources: { en: { translation: en }, de: { translation: de }, zh: { translation: zh } },
    lng: resolvedLanguage(),
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: ['en', 'de', 'zh'],
    // Keys are flat ("composer.send"): dots and colons are part of them.
    keySeparator: false,
    nsSeparator: false,
    // React escapes what it renders.
    interpolation: { escapeValue: false },
    initAsync: false,
    returnNull: false,
  });

/** Switches the app's language, and the page's `lang` with it (screen readers and fonts follow it). */
export async function applyLanguage(language: Language): Promise<void> {
  await i18n.changeLanguage(language);
  markPage(language);
}

/** The page's `lang` (there is no page in a test that runs under Node). */
function markPage(language: Language): void {
  if (typeof document !== 'undefined') document.documentElement.lang = htmlLangOf(language);
}

markPage(resolvedLanguage());

/** Translates outside React (state modules, notifications), in the current language. */
export const t = i18n.t.bind(i18n);
