import type { CustomEmoji } from '@im/protocol';
import { useContext, useEffect, useMemo, useState } from 'react';
import { CustomEmojiContext, CustomEmojiImage } from './CustomEmojiContext.tsx';
import type { EmojiCategory } from './emoji-data.ts';
import { recentEmoji, rememberEmoji } from './recent.ts';

/** Most search results shown at once. */
const MAX_RESULTS = 120;

type Data = { categories: EmojiCategory[] };

let data: Promise<Data> | undefined;
/** The emoji table is a separate chunk, fetched the first time a picker opens. */
const loadData = () => (data ??= import('./emoji-data.ts').then((m) => ({ categories: m.CATEGORIES })));

/**
 * A full emoji picker: search by name or keyword, categories, the group's
 * custom emoji, and what this browser used recently. `onPick` gets a Unicode
 * emoji or `:name:` of a custom one. Its opener closes it (see useMenu).
 */
export function EmojiPicker(props: { onPick(emoji: string): void; label?: string }) {
  const custom = useContext(CustomEmojiContext);
  const [loaded, setLoaded] = useState<Data>();
  const [query, setQuery] = useState('');
  const [category, setCategory] = useState<string>('recent');
  const [recent] = useState(recentEmoji);

  useEffect(() => {
    let live = true;
    void loadData().then((d) => live && setLoaded(d));
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
    { key: 'recent', label: 'Recently used', icon: '🕘' },
    ...(customList.length > 0 ? [{ key: 'custom', label: 'Custom', icon: '⭐' }] : []),
    ...(loaded?.categories ?? []).map((c) => ({ key: c.key, label: c.label, icon: c.emoji[0]?.emoji ?? '?' })),
  ];
  const shown = loaded?.categories.find((c) => c.key === category);

  return (
    <div className="emoji-picker" role="dialog" aria-label={props.label ?? 'Emoji picker'}>
      <input
        type="search"
        className="emoji-search"
        placeholder="Search emoji"
        aria-label="Search emoji"
        value={query}
        autoFocus
        onChange={(e) => setQuery(e.target.value)}
      />
      {!results && (
        <div className="emoji-tabs" role="tablist" aria-label="Emoji categories">
          {tabs.map((t) => (
            <button
              key={t.key}
              type="button"
              role="tab"
              aria-selected={category === t.key}
              aria-label={t.label}
              title={t.label}
              onClick={() => setCategory(t.key)}
            >
              {t.icon}
            </button>
          ))}
        </div>
      )}
      <div className="emoji-body">
        {results ? (
          <>
            {results.custom.length > 0 && <CustomSection list={results.custom} onPick={pick} title="Custom" />}
            <Section
              title="Results"
              emoji={results.unicode.map((e) => ({ emoji: e.emoji, label: e.label }))}
              onPick={pick}
            />
            {results.custom.length === 0 && results.unicode.length === 0 && (
              <p className="hint">{loaded ? 'No emoji found' : 'Loading…'}</p>
            )}
          </>
        ) : category === 'recent' ? (
          recent.length > 0 ? (
            <RecentSection recent={recent} custom={custom} onPick={pick} />
          ) : (
            <p className="hint">Emoji you pick show up here.</p>
          )
        ) : category === 'custom' ? (
          <CustomSection list={customList} onPick={pick} title="Custom" />
        ) : shown ? (
          <Section title={shown.label} emoji={shown.emoji} onPick={pick} />
        ) : (
          <p className="hint">Loading…</p>
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
  const usable = props.recent.filter((e) => !e.startsWith(':') || props.custom.has(e.slice(1, -1)));
  return (
    <section aria-label="Recently used">
      <h4>Recently used</h4>
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
