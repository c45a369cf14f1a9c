import { useId, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface SettingsSection {
  id: string;
  label: string;
  content: ReactNode;
}

/**
 * Long settings as named sections with a navigation beside them (above them
 * on a phone): a click scrolls its section into view. Every section stays
 * mounted, so what one shows (a status line, a form half filled) is kept
 * while moving between them.
 */
export function SettingsSections(props: { sections: SettingsSection[] }) {
  const { t } = useTranslation();
  const base = useId();
  const [current, setCurrent] = useState(props.sections[0]?.id);
  const body = useRef<HTMLDivElement>(null);
  const show = (id: string) => {
    setCurrent(id);
    document.getElementById(`${base}-${id}`)?.scrollIntoView({ block: 'start', behavior: 'smooth' });
  };
  return (
    <div className="settings-layout">
      <nav className="settings-nav" aria-label={t('shell.settings.sections')}>
        {props.sections.map((s) => (
          <button
            key={s.id}
            type="button"
            aria-current={s.id === current ? 'true' : undefined}
            onClick={() => show(s.id)}
          >
            {s.label}
          </button>
        ))}
      </nav>
      <div className="settings-body" ref={body}>
        {props.sections.map((s) => (
          <section
            key={s.id}
            id={`${base}-${s.id}`}
            className="settings-section"
            aria-labelledby={`${base}-${s.id}-title`}
            data-testid={`settings-${s.id}`}
          >
            <h2 className="settings-section-title" id={`${base}-${s.id}-title`}>
              {s.label}
            </h2>
            {s.content}
          </section>
        ))}
      </div>
    </div>
  );
}
