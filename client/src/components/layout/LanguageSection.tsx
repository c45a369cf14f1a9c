import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { applyLanguage } from '../../i18n/i18n.ts';
import { LANGUAGES } from '../../i18n/languages.ts';
import {
  browserLanguage,
  languagePreference,
  resolvedLanguage,
  saveLanguagePreference,
  type LanguagePreference,
} from '../../i18n/preference.ts';

/**
 * The app's language on this device: the browser's, or one chosen here
 * (applied at once). The Settings section's title is its heading, so it
 * has none of its own; the choice carries the same name.
 */
export function LanguageSection() {
  const { t } = useTranslation();
  const [preference, setPreference] = useState<LanguagePreference>(languagePreference);
  const browserName = LANGUAGES.find((l) => l.code === browserLanguage())!.name;
  const choose = (next: LanguagePreference) => {
    setPreference(next);
    saveLanguagePreference(next);
    void applyLanguage(resolvedLanguage(next));
  };
  return (
    <div className="form">
      <select
        aria-label={t('settings.language')}
        value={preference}
        onChange={(e) => choose(e.target.value as LanguagePreference)}
      >
        <option value="system">{t('settings.language.system', { language: browserName })}</option>
        {LANGUAGES.map((l) => (
          <option key={l.code} value={l.code} lang={l.htmlLang}>
            {l.name}
          </option>
        ))}
      </select>
    </div>
  );
}
