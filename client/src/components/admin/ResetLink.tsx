import type { AdminUser } from '@im/protocol';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { makeResetLink } from '../../state/email.ts';
import { CopyField } from '../common/CopyButton.tsx';
import { ErrorLine } from '../common/ErrorLine.tsx';
import { useAction } from '../common/useAction.ts';

/**
 * A server admin's "Make reset link" for an account: the link that sets a
 * new password (the same an e-mail would carry, made even without e-mail),
 * shown with a copy button to hand over privately. A new one can be made.
 * `children`: the row's other actions, beside the button and above the link.
 * Not for my own account (I change my password in Settings).
 */
export function ResetLink(props: { user: AdminUser; self?: boolean; children?: ReactNode }) {
  const { t } = useTranslation();
  const [url, setUrl] = useState<string | null>(null);
  const { busy, error, run } = useAction();
  const make = () => run(async () => setUrl((await makeResetLink(props.user.id)).url));
  return (
    <>
      <div className="mod-actions">
        {!props.self && (
          <button type="button" disabled={busy} onClick={() => void make()}>
            {url ? t('admin.reset.again') : t('admin.reset.make')}
          </button>
        )}
        {props.children}
      </div>
      {(url || error) && (
        <div className="reset-link" data-testid="reset-link">
          <ErrorLine error={error} />
          {url && (
            <>
              <CopyField
                label={t('admin.reset.label', { username: props.user.username })}
                value={url}
                testId="reset-url"
              />
              <p className="hint" role="status">
                {t('admin.reset.hint', { username: props.user.username })}
              </p>
            </>
          )}
        </div>
      )}
    </>
  );
}
