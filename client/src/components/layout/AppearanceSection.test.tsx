import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { themePreference } from '../../theme/preference.ts';
import { AppearanceSection } from './AppearanceSection.tsx';

afterEach(() => {
  localStorage.clear();
  delete document.documentElement.dataset.theme;
});

describe('the theme setting', () => {
  it("offers the system's scheme (named), light and dark, the system's chosen at first", () => {
    render(<AppearanceSection />);
    const group = screen.getByRole('group', { name: 'Theme' });
    expect(group).toBeTruthy();
    const radios = screen.getAllByRole('radio');
    // jsdom has no matchMedia: the system's scheme is the app's default, dark.
    expect(radios.map((r) => r.closest('label')!.textContent)).toEqual(['Same as the system (dark)', 'Light', 'Dark']);
    expect(screen.getByRole('radio', { name: 'Same as the system (dark)' })).toHaveProperty('checked', true);
  });

  it('applies a choice to the page at once and keeps it on this device; "system" forgets it', async () => {
    render(<AppearanceSection />);
    await userEvent.click(screen.getByRole('radio', { name: 'Light' }));
    expect(document.documentElement.dataset.theme).toBe('light');
    expect(themePreference()).toBe('light');
    expect(localStorage.getItem('im.theme')).toBe('light');

    await userEvent.click(screen.getByRole('radio', { name: 'Same as the system (dark)' }));
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(themePreference()).toBe('system');
    expect(localStorage.getItem('im.theme')).toBeNull();
  });
});
