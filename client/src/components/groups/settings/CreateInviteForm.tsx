import { t } from '../../../i18n/i18n.ts';
import { useTranslation } from 'react-i18next';
import type { Invite } from '@im/protocol';
import { useState } from 'react';
import { createInvite, type InviteOptions } from '../../../state/groups.ts';
import { InlineForm } from './InlineForm.tsx';

/** How long a new invite lasts; the server's default is 7 days. */
export const INVITE_EXPIRY = [
  { label: 'groups.duration.1h', seconds: 60 * 60 },
  { label: 'groups.duration.1d', seconds: 24 * 60 * 60 },
  { label: 'groups.duration.7d', seconds: 7 * 24 * 60 * 60 },
  { label: 'groups.duration.30d', seconds: 30 * 24 * 60 * 60 },
] as const;
export const MAX_INVITE_USES = 1_000_000;

/** The body for a new invite: an empty uses field means unlimited. */
export function inviteOptions(expiresInSec: number, maxUses: string): InviteOptions | string {
  const uses = maxUses.trim();
  if (uses === '') return { expiresInSec };
  const n = Number(uses);
  if (!Number.isInteger(n) || n < 1 || n > MAX_INVITE_USES)
    return t('groups.invites.maxUses.rule', { max: MAX_INVITE_USES });
  return { expiresInSec, maxUses: n };
}

export function CreateInviteForm(props: { groupId: string; onCreated: (invite: Invite) => void }) {
  const { t } = useTranslation();
  const [expires, setExpires] = useState<number>(INVITE_EXPIRY[2].seconds);
  const [maxUses, setMaxUses] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const opts = inviteOptions(expires, maxUses);
    if (typeof opts === 'string') return setError(opts);
    setError(null);
    setBusy(true);
    // createInvite reports its own failure as a notice and answers null.
    const invite = await createInvite(props.groupId, opts);
    setBusy(false);
    if (invite) props.onCreated(invite);
  };
  return (
    <InlineForm
      label={t('groups.invites.create.label')}
      submit={t('groups.invites.create')}
      busy={busy}
      error={error}
      onSubmit={submit}
    >
      <div className="field-row">
        <label>
          {t('groups.invites.expiresAfter')}
          <select value={expires} onChange={(e) => setExpires(Number(e.target.value))}>
            {INVITE_EXPIRY.map((c) => (
              <option key={c.seconds} value={c.seconds}>
                {t(c.label)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('groups.invites.maxUses')}
          <input
            type="number"
            min={1}
            max={MAX_INVITE_USES}
            step={1}
            inputMode="numeric"
            placeholder={t('groups.invites.unlimited')}
            value={maxUses}
            onChange={(e) => setMaxUses(e.target.value)}
          />
        </label>
      </div>
    </InlineForm>
  );
}
