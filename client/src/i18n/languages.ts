// The languages the app speaks, and which one a browser asks for. Chinese is
// Simplified Chinese for now: any `zh` tag gets it rather than English.
export const LANGUAGES = [
  { code: 'en', name: 'English', htmlLang: 'en' },
  { code: 'de', name: 'Deutsch', htmlLang: 'de' },
  { code: 'zh', name: '简体中文', htmlLang: 'zh-Hans' },
] as const;

export type Language = (typeof LANGUAGES)[number]['code'];

export const DEFAULT_LANGUAGE: Language = 'en';

export const isLanguage = (code: unknown): code is Language => LANGUAGES.some((l) => l.code === code);

/** The first of the browser's languages (most wanted first) the app speaks; English when none. */
export function pickLanguage(wanted: readonly string[]): Language {
  for (const tag of wanted) {
    const base = tag.toLowerCase().split('-')[0];
    if (isLanguage(base)) return base;
  }
  return DEFAULT_LANGUAGE;
}

/** The `lang` attribute for a language (BCP 47, with the script for Chinese). */
export const htmlLangOf = (code: Language): string => LANGUAGES.find((l) => l.code === code)!.htmlLang;
