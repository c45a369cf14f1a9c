import type { AdminUser } from '@im/protocol';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { makeClaimLink } from '../../state/admin.ts';
import { CopyField } from '../common/CopyButton.tsx';
import { ErrorLine } from '../common/ErrorLine.tsx';
import { useAction } from '../common/useAction.ts';
import { formatMoment } from '../messages/format.ts';

/**
 * A server admin's "Claim link" for an account an import made: the link
 * where its person sets a password, shown with a copy button to hand over.
 * Making another voids the one shown before. `children`: the row's other
 * actions, beside the button and above the link.
 */
export function ClaimLink(props: { user: AdminUser; children?: ReactNode }) {
  const { t } = useTranslation();
  const [link, setLink] = useState<{ url: string; expiresAt: string } | null>(null);
  const { busy, error, run } = useAction();
  const make = () => run(async () => setLink(await makeClaimLink(props.user.id)));
  return (
    <>
      <div className="mod-actions">
        <button type="button" disabled={busy} onClick={() => void make()}>
          {link ? t('admin.claim.again') : t('admin.claim.make')}
        </button>
        {props.children}
      </div>
      {(link || error) && (
        <div className="reset-link" data-testid="claim-link">
          <ErrorLine error={error} />
          {link && (
            <>
              <CopyField
                label={t('admin.claim.label', { username: props.user.username })}
                value={link.url}
                testId="claim-url"
              />
              <p className="hint" role="status">
                {t('admin.claim.hint', { username: props.user.username, until: formatMoment(link.expiresAt) })}
              </p>
            </>
          )}
        </div>
      )}
    </>
  );
}
