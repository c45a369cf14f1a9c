import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

export interface Tab {
  id: string;
  label: string;
  render: () => ReactNode;
}

/**
 * A tab list (ARIA tabs pattern): arrows, Home and End move between tabs, Tab
 * goes on into the open panel. Only the open panel is mounted, so each tab
 * loads fresh when shown.
 */
export function Tabs(props: { label: string; tabs: Tab[]; initial?: string }) {
  const base = useId();
  const [active, setActive] = useState(props.initial ?? props.tabs[0]?.id);
  const buttons = useRef(new Map<string, HTMLButtonElement>());
  const current = props.tabs.find((t) => t.id === active) ?? props.tabs[0];
  const move = (event: KeyboardEvent, index: number) => {
    const last = props.tabs.length - 1;
    const targets: Record<string, number> = {
      ArrowRight: index === last ? 0 : index + 1,
      ArrowLeft: index === 0 ? last : index - 1,
      Home: 0,
      End: last,
    };
    const next = targets[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const tab = props.tabs[next]!;
    setActive(tab.id);
    buttons.current.get(tab.id)?.focus();
  };
  return (
    <div className="tabs">
      <div role="tablist" aria-label={props.label} className="tab-list">
        {props.tabs.map((tab, i) => (
          <button
            key={tab.id}
            ref={(el) => {
              if (el) buttons.current.set(tab.id, el);
              else buttons.current.delete(tab.id);
            }}
            type="button"
            role="tab"
            id={`${base}-tab-${tab.id}`}
            aria-selected={tab.id === current?.id}
            aria-controls={`${base}-panel`}
            tabIndex={tab.id === current?.id ? 0 : -1}
            onClick={() => setActive(tab.id)}
            onKeyDown={(e) => move(e, i)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      {current && (
        <div
          role="tabpanel"
          id={`${base}-panel`}
          aria-labelledby={`${base}-tab-${current.id}`}
          className="tab-panel"
          key={current.id}
        >
          {current.render()}
        </div>
      )}
    </div>
  );
}
