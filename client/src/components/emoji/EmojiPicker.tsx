import type { CustomEmoji } from '@im/protocol';
import { useContext, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MessageKey } from '../../i18n/locales/en/index.ts';
import { CustomEmojiContext, CustomEmojiImage } from './CustomEmojiContext.tsx';
import type { EmojiCategory } from './emoji-data.ts';
import { recentEmoji, rememberEmoji } from './recent.ts';

/** Most search results shown at once. */
const MAX_RESULTS = 120;

type Data = { categories: EmojiCategory[] };

let data: Promise<Data> | undefined;
/** The emoji table is a separate chunk, fetched the first time a picker opens. */
const loadEmojiData = () => (data ??= import('./emoji-data.ts').then((m) => ({ categories: m.CATEGORIES })));

/** Each emojibase group's name in the app's languages. */
const CATEGORY_NAMES: Record<string, MessageKey> = {
  'smileys-emotion': 'keyboard.emoji.smileys',
  'people-body': 'keyboard.emoji.people',
  'animals-nature': 'keyboard.emoji.animals',
  'food-drink': 'keyboard.emoji.food',
  'travel-places': 'keyboard.emoji.travel',
  activities: 'keyboard.emoji.activities',
  objects: 'keyboard.emoji.objects',
  symbols: 'keyboard.emoji.symbols',
  flags: 'keyboard.emoji.flags',
};

/**
 * A full emoji picker: search by name or keyword, categories, the group's
 * custom emoji, and what this browser used recently. `onPick` gets a Unicode
 * emoji or `:name:` of a custom one. Its opener closes it (see useMenu).
 */
export function EmojiPicker(props: { onPick(emoji: string): void; label?: string }) {
  const { t } = useTranslation();
  const custom = useContext(CustomEmojiContext);
  const [loaded, setLoaded] = useState<Data>();
  const [query, setQuery] = useState('');
  const [recent] = useState(recentEmoji);
  // Nothing used yet: the first category (smileys) rather than an empty "Recently used".
  const [chosen, setCategory] = useState<string | null>(null);
  const category = chosen ?? (recent.length > 0 ? 'recent' : (loaded?.categories[0]?.key ?? 'recent'));
  const categoryName = (c: EmojiCategory): string => {
    const key = CATEGORY_NAMES[c.key];
    return key ? t(key) : c.label;
  };

  useEffect(() => {
    let live = true;
    void loadEmojiData().then((d) => live && setLoaded(d));
    return () => {
      live = false;
    };
  }, []);

  const pick = (emoji: string) => {
    rememberEmoji(emoji);
    props.onPick(emoji);
  };

  const customList = useMemo(() => [...custom.values()], [custom]);
  const q = query.trim().toLowerCase().replace(/^:|:$/g, '');
  const results = useMemo(() => {
    if (!q) return null;
    const unicode = (loaded?.categories ?? [])
      .flatMap((c) => c.emoji)
      .filter((e) => e.words.some((w) => w.includes(q)))
      .slice(0, MAX_RESULTS);
    return { custom: customList.filter((e) => e.name.includes(q)), unicode };
  }, [q, loaded, customList]);

  const tabs = [
    { key: 'recent', label: t('keyboard.emoji.recent'), icon: '🕘' },
    ...(customList.length > 0 ? [{ key: 'custom', label: t('keyboard.emoji.custom'), icon: '⭐' }] : []),
    ...(loaded?.categories ?? []).map((c) => ({ key: c.key, label: categoryName(c), icon: c.emoji[0]?.emoji ?? '?' })),
  ];
  const shown = loaded?.categories.find((c) => c.key === category);

  return (
    <div className="emoji-picker" role="dialog" aria-label={props.label ?? t('keyboard.emoji.picker')}>
      <input
        type="search"
        className="emoji-search"
        placeholder={t('keyboard.emoji.search')}
        aria-label={t('keyboard.emoji.search')}
        value={query}
        autoFocus
        onChange={(e) => setQuery(e.target.value)}
      />
      {!results && (
        <div className="emoji-tabs" role="tablist" aria-label={t('keyboard.emoji.categories')}>
          {tabs.map((tab) => (
            <button
              key={tab.key}
              type="button"
              role="tab"
              aria-selected={category === tab.key}
              aria-label={tab.label}
              title={tab.label}
              onClick={() => setCategory(tab.key)}
            >
              {tab.icon}
            </button>
          ))}
        </div>
      )}
      <div className="emoji-body">
        {results ? (
          <>
            {results.custom.length > 0 && (
              <CustomSection list={results.custom} onPick={pick} title={t('keyboard.emoji.custom')} />
            )}
            <Section
              title={t('keyboard.emoji.results')}
              emoji={results.unicode.map((e) => ({ emoji: e.emoji, label: e.label }))}
              onPick={pick}
            />
            {results.custom.length === 0 && results.unicode.length === 0 && (
              <p className="hint">{loaded ? t('keyboard.emoji.none') : t('common.loading')}</p>
            )}
          </>
        ) : category === 'recent' ? (
          recent.length > 0 ? (
            <RecentSection recent={recent} custom={custom} onPick={pick} />
          ) : (
            <p className="hint">{t('keyboard.emoji.recentEmpty')}</p>
          )
        ) : category === 'custom' ? (
          <CustomSection list={customList} onPick={pick} title={t('keyboard.emoji.custom')} />
        ) : shown ? (
          <Section title={categoryName(shown)} emoji={shown.emoji} onPick={pick} />
        ) : (
          <p className="hint">{t('common.loading')}</p>
        )}
      </div>
    </div>
  );
}

function Section(props: { title: string; emoji: Array<{ emoji: string; label: string }>; onPick(e: string): void }) {
  if (props.emoji.length === 0) return null;
  return (
    <section aria-label={props.title}>
      <h4>{props.title}</h4>
      <div className="emoji-grid">
        {props.emoji.map((e) => (
          <button
            key={e.emoji}
            type="button"
            aria-label={e.label}
            title={e.label}
            onClick={() => props.onPick(e.emoji)}
          >
            {e.emoji}
          </button>
        ))}
      </div>
    </section>
  );
}

function CustomSection(props: { list: CustomEmoji[]; title: string; onPick(e: string): void }) {
  return (
    <section aria-label={props.title}>
      <h4>{props.title}</h4>
      <div className="emoji-grid">
        {props.list.map((e) => (
          <button
            key={e.name}
            type="button"
            aria-label={`:${e.name}:`}
            title={`:${e.name}:`}
            onClick={() => props.onPick(`:${e.name}:`)}
          >
            <CustomEmojiImage emoji={e} size="large" />
          </button>
        ))}
      </div>
    </section>
  );
}

/** Recently used, custom ones included while the group still has them. */
function RecentSection(props: { recent: string[]; custom: ReadonlyMap<string, CustomEmoji>; onPick(e: string): void }) {
  const { t } = useTranslation();
  const usable = props.recent.filter((e) => !e.startsWith(':') || props.custom.has(e.slice(1, -1)));
  return (
    <section aria-label={t('keyboard.emoji.recent')}>
      <h4>{t('keyboard.emoji.recent')}</h4>
      <div className="emoji-grid">
        {usable.map((e) => {
          const found = e.startsWith(':') ? props.custom.get(e.slice(1, -1)) : undefined;
          return (
            <button key={e} type="button" aria-label={e} title={e} onClick={() => props.onPick(e)}>
              {found ? <CustomEmojiImage emoji={found} size="large" /> : e}
            </button>
          );
        })}
      </div>
    </section>
  );
}
