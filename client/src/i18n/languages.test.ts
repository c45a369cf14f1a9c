import { describe, expect, it } from 'vitest';
import { htmlLangOf, pickLanguage } from './languages.ts';
import { i18n } from './i18n.ts';

describe('choosing the language', () => {
  it("takes the first of the browser's languages the app speaks, by its base", () => {
    expect(pickLanguage(['fr-FR', 'de-AT', 'en'])).toBe('de');
    expect(pickLanguage(['zh-CN'])).toBe('zh');
    expect(pickLanguage(['zh-Hans-SG', 'en'])).toBe('zh');
    expect(pickLanguage(['EN-gb'])).toBe('en');
  });

  it('falls back to English when the browser asks for none the app speaks', () => {
    expect(pickLanguage(['fr', 'ja'])).toBe('en');
    expect(pickLanguage([])).toBe('en');
  });

  it('names Chinese with its script in the page language', () => {
    expect(htmlLangOf('zh')).toBe('zh-Hans');
    expect(htmlLangOf('de')).toBe('de');
  });
});

describe('messages', () => {
  it('fill in ICU arguments in each language', async () => {
    await i18n.changeLanguage('de');
    expect(i18n.t('settings.language.system', { language: 'Deutsch' })).toBe('Wie der Browser (Deutsch)');
    await i18n.changeLanguage('zh');
    expect(i18n.t('common.save')).toBe('保存');
    await i18n.changeLanguage('en');
    expect(i18n.t('common.save')).toBe('Save');
  });
});
