import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useIsBlocked } from '../../state/blocks.ts';

/** A message of someone I blocked: folded to one line, shown on request (for this view only). */
export function BlockedGate(props: { authorId: string; children: ReactNode }) {
  const { t } = useTranslation();
  const blocked = useIsBlocked(props.authorId);
  const [shown, setShown] = useState(false);
  if (!blocked || shown) return <>{props.children}</>;
  return (
    <div className="message blocked-message" data-testid="blocked-message">
      <div className="gutter" />
      <p className="content tombstone">
        {t('safety.blockedMessage')}{' '}
        <button type="button" className="link" onClick={() => setShown(true)}>
          {t('safety.showMessage')}
        </button>
      </p>
    </div>
  );
}
