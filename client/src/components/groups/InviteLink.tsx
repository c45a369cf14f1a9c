import { useTranslation } from 'react-i18next';
import type { Invite } from '@im/protocol';
import { inviteUrl } from '../../state/route.ts';
import { CopyButton } from '../common/CopyButton.tsx';
import { formatMoment } from '../messages/format.ts';

/** A new invite's link to copy, with its code and limits. */
export function InviteLink(props: { invite: Invite }) {
  const { t } = useTranslation();
  const { invite } = props;
  const link = inviteUrl(invite.code);
  return (
    <div className="form">
      <label>
        {t('join.link.label')}
        <input readOnly value={link} data-testid="invite-link" onFocus={(e) => e.target.select()} />
      </label>
      <p className="hint">
        {t('join.link.code')} <code data-testid="invite-code">{invite.code}</code> ·{' '}
        {t('join.link.expires', { when: formatMoment(invite.expiresAt) })}
        {invite.maxUses !== null && <> · {t('join.link.uses', { count: invite.maxUses })}</>}
      </p>
      <div className="form-actions">
        <CopyButton text={link} label={t('join.link.copy')} className="primary" />
      </div>
    </div>
  );
}
