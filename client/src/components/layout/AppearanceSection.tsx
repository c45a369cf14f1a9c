import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  onSystemThemeChange,
  saveThemePreference,
  systemTheme,
  themePreference,
  type ThemePreference,
} from '../../theme/preference.ts';
import { applyTheme } from '../../theme/theme.ts';

const CHOICES: ThemePreference[] = ['system', 'light', 'dark'];

/** The colour theme on this device: the system's, or light or dark chosen here (applied at once). */
export function AppearanceSection() {
  const { t } = useTranslation();
  const [preference, setPreference] = useState<ThemePreference>(themePreference);
  // "System" names what the system asks for now, and follows it.
  const [system, setSystem] = useState(systemTheme);
  useEffect(() => onSystemThemeChange(() => setSystem(systemTheme())), []);
  const choose = (next: ThemePreference) => {
    setPreference(next);
    saveThemePreference(next);
    applyTheme(next === 'system' ? systemTheme() : next);
  };
  const label = (choice: ThemePreference) =>
    choice === 'system'
      ? t('appearance.theme.system', { theme: system })
      : t(choice === 'light' ? 'appearance.theme.light' : 'appearance.theme.dark');
  return (
    <fieldset className="form appearance">
      <legend>
        <h3>{t('appearance.theme')}</h3>
      </legend>
      {CHOICES.map((choice) => (
        <label key={choice} className="check">
          <input
            type="radio"
            name="theme"
            value={choice}
            checked={preference === choice}
            onChange={() => choose(choice)}
          />
          {label(choice)}
        </label>
      ))}
    </fieldset>
  );
}
