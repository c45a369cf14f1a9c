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
    return 'Only panels of a public group can be web-public. Make the group public in its settings first.';
  }
  return describeError(err);
}

/**
 * Whether anyone on the web may read a panel (its page, Atom and RSS feeds),
 * and its links to share when so. The switch applies at once; it reads the
 * panel and group from the store, so events from other admins show too.
 */
export function WebPublicSection(props: { groupId: string; panelId: string }) {
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
      <h3 id={`${hintId}-title`}>On the web</h3>
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
        Web-public
      </label>
      <p className="hint" id={hintId}>
        {panel.private
          ? 'A private panel cannot be web-public: make it visible to every member first.'
          : isPublic
            ? 'Anyone can read this panel at its public link without an account, and follow it in a feed reader. This switch takes effect at once.'
            : 'Only panels of a public group can be web-public. Make the group public in Group settings (Visibility) first.'}
      </p>
      <ErrorLine error={error} />
      {panel.webPublic && (
        <>
          <CopyField label="Public link" value={links.page} testId="public-link" />
          <CopyField label="Atom feed" value={links.atom} testId="atom-link" />
          <CopyField label="RSS feed" value={links.rss} testId="rss-link" />
        </>
      )}
    </section>
  );
}
