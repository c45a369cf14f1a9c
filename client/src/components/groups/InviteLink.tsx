import type { Invite } from '@im/protocol';
import { inviteUrl } from '../../state/route.ts';
import { CopyButton } from '../common/CopyButton.tsx';
import { formatMoment } from '../messages/format.ts';

/** A new invite's link to copy, with its code and limits. */
export function InviteLink(props: { invite: Invite }) {
  const { invite } = props;
  const link = inviteUrl(invite.code);
  return (
    <div className="form">
      <label>
        Invite link
        <input readOnly value={link} data-testid="invite-link" onFocus={(e) => e.target.select()} />
      </label>
      <p className="hint">
        Code <code data-testid="invite-code">{invite.code}</code> · expires {formatMoment(invite.expiresAt)}
        {invite.maxUses !== null ? ` · ${invite.maxUses} ${invite.maxUses === 1 ? 'use' : 'uses'}` : ''}
      </p>
      <div className="form-actions">
        <CopyButton text={link} label="Copy link" className="primary" />
      </div>
    </div>
  );
}
