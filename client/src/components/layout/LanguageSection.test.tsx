import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../../i18n/i18n.ts';
import { languagePreference } from '../../i18n/preference.ts';
import { LanguageSection } from './LanguageSection.tsx';

afterEach(async () => {
  localStorage.clear();
  await act(() => i18n.changeLanguage('en'));
  document.documentElement.lang = 'en';
});

describe('the language setting', () => {
  it("offers the browser's language first, then each language by its own name", () => {
    render(<LanguageSection />);
    const options = screen.getAllByRole('option').map((o) => o.textContent);
    expect(options).toEqual(['Same as the browser (English)', 'English', 'Deutsch', '简体中文']);
  });

  it('switches the app and the page language at once, and keeps the choice on this device', async () => {
    render(<LanguageSection />);
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'de');
    expect(await screen.findByRole('combobox', { name: 'Sprache' })).toBeTruthy();
    expect(document.documentElement.lang).toBe('de');
    expect(languagePreference()).toBe('de');

    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Sprache' }), 'system');
    expect(await screen.findByRole('combobox', { name: 'Language' })).toBeTruthy();
    expect(document.documentElement.lang).toBe('en');
    expect(languagePreference()).toBe('system');
  });
});
