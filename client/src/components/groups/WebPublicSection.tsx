import { t } from '../../i18n/i18n.ts';
import { useTranslation } from 'react-i18next';
import type { Panel } from '@im/protocol';
import { useId, useState } from 'react';
import { ApiRequestError, describeError } from '../../api/errors.ts';
import { publicPanelLinks } from '../../state/feeds.ts';
import { setPanelWebPublic } from '../../state/groups.ts';
import { useStore } from '../../state/store.ts';
import { CopyField } from '../common/CopyButton.tsx';
import { ErrorLine } from '../common/ErrorLine.tsx';
import { useAction } from '../common/useAction.ts';

/** A refused change said for this switch: a private group's panels cannot go on the web. */
function explain(err: unknown): string {
  if (err instanceof ApiRequestError && err.code === 'IM_ERR_CONFLICT') {
    return t('groups.web.conflict');
  }
  return describeError(err);
}

/**
 * Whether anyone on the web may read a panel (its page, Atom and RSS feeds),
 * and its links to share when so. The switch applies at once; it reads the
 * panel and group from the store, so events from other admins show too.
 */
export function WebPublicSection(props: { groupId: string; panelId: string }) {
  const { t } = useTranslation();
  const hintId = useId();
  const group = useStore((s) => s.groups[props.groupId]);
  const panel: Panel | undefined = group?.panels.find((p) => p.id === props.panelId);
  const { busy, error, run } = useAction();
  // The switch shows the asked-for state while the request runs, then the panel's.
  const [asked, setAsked] = useState<boolean | null>(null);
  if (!group || !panel) return null;
  const isPublic = group.visibility === 'public';
  // A private panel is never on the web (making it private took it off).
  const allowed = isPublic && !panel.private;
  const links = publicPanelLinks(panel.id);
  return (
    <section className="form" aria-labelledby={`${hintId}-title`} data-testid="web-public">
      <h3 id={`${hintId}-title`}>{t('groups.web.title')}</h3>
      <label className="check">
        <input
          type="checkbox"
          role="switch"
          checked={busy && asked !== null ? asked : panel.webPublic}
          disabled={busy || (!allowed && !panel.webPublic)}
          aria-describedby={hintId}
          onChange={(e) => {
            const on = e.target.checked;
            setAsked(on);
            void run(() => setPanelWebPublic(group.id, panel.id, on), explain);
          }}
        />
        {t('groups.web.switch')}
      </label>
      <p className="hint" id={hintId}>
        {panel.private ? t('groups.web.private') : isPublic ? t('groups.web.on') : t('groups.web.notPublic')}
      </p>
      <ErrorLine error={error} />
      {panel.webPublic && (
        <>
          <CopyField label={t('groups.web.link')} value={links.page} testId="public-link" />
          <CopyField label={t('groups.web.atom')} value={links.atom} testId="atom-link" />
          <CopyField label={t('groups.web.rss')} value={links.rss} testId="rss-link" />
        </>
      )}
    </section>
  );
}
