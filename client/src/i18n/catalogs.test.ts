import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from './languages.ts';
import { de } from './locales/de/index.ts';
import { en } from './locales/en/index.ts';
import { zh } from './locales/zh/index.ts';

const catalogs: Record<string, Record<string, string>> = { en, de, zh };

/** The names of the arguments a message takes (nested in plurals and selects too). */
function argumentsOf(elements: MessageFormatElement[], into = new Set<string>()): Set<string> {
  for (const el of elements) {
    if (el.type === TYPE.literal || el.type === TYPE.pound) continue;
    if (el.type === TYPE.tag) {
      argumentsOf(el.children, into);
      continue;
    }
    into.add(el.value);
    if (el.type === TYPE.plural || el.type === TYPE.select)
      for (const option of Object.values(el.options)) argumentsOf(option.value, into);
  }
  return into;
}

describe('the catalogs', () => {
  it('exist for every language the app offers', () => {
    expect(Object.keys(catalogs).sort()).toEqual(LANGUAGES.map((l) => l.code).sort());
  });

  for (const [language, catalog] of Object.entries(catalogs).filter(([l]) => l !== 'en')) {
    it(`${language}: has every English key and no other`, () => {
      const missing = Object.keys(en).filter((k) => !(k in catalog));
      const extra = Object.keys(catalog).filter((k) => !(k in en));
      expect({ missing, extra }).toEqual({ missing: [], extra: [] });
    });
  }

  for (const [language, catalog] of Object.entries(catalogs)) {
    it(`${language}: every message is valid ICU, with the English message's arguments, and is not empty`, () => {
      const wrong: string[] = [];
      for (const [key, message] of Object.entries(catalog)) {
        const source = en[key as keyof typeof en];
        if (!message.trim()) {
          wrong.push(`${key}: empty`);
          continue;
        }
        try {
          const mine = [...argumentsOf(parse(message))].sort();
          const english = [...argumentsOf(parse(source))].sort();
          if (mine.join() !== english.join()) wrong.push(`${key}: arguments ${mine} where English has ${english}`);
        } catch (err) {
          wrong.push(`${key}: ${(err as Error).message}`);
        }
      }
      expect(wrong).toEqual([]);
    });
  }
});
