import { useTranslation } from 'react-i18next';
import type { Group } from '@im/protocol';
import { useRef, useState } from 'react';
import { describeError } from '../../../api/errors.ts';
import { removeGroupIcon, setGroupIcon } from '../../../state/group-icon.ts';
import { ErrorLine } from '../../common/ErrorLine.tsx';
import { StatusLine } from '../../common/StatusLine.tsx';
import { useAction } from '../../common/useAction.ts';
import { squarePicture } from '../../people/square-picture.ts';
import { GroupIcon } from '../GroupIcon.tsx';

/** A picture's own message (it cannot be read or resized here), else the server's refusal as a sentence. */
const explain = (err: unknown) => (err instanceof Error && !('code' in err) ? err.message : describeError(err));

/** The group's icon, shown in the rail and its header: chosen, cut to a square here, or removed (manageGroup). */
export function IconTab(props: { group: Group }) {
  const { t } = useTranslation();
  const { group } = props;
  const input = useRef<HTMLInputElement>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const { busy, error, run } = useAction();
  const choose = async (file: File | undefined) => {
    if (!file) return;
    setSaved(null);
    const done = await run(async () => setGroupIcon(group.id, await squarePicture(file)), explain);
    if (input.current) input.current.value = '';
    if (done) setSaved(t('groups.icon.saved'));
  };
  const remove = async () => {
    setSaved(null);
    if (await run(() => removeGroupIcon(group.id))) setSaved(t('groups.icon.removed'));
  };
  return (
    <div className="form icon-tab">
      <p className="hint">{t('groups.icon.hint')}</p>
      <div className="avatar-row">
        <span className="group-icon large" data-testid="group-icon-preview">
          <GroupIcon group={group} />
        </span>
        <button type="button" disabled={busy} onClick={() => input.current?.click()}>
          {busy ? t('groups.icon.saving') : group.icon ? t('groups.icon.change') : t('groups.icon.choose')}
        </button>
        {group.icon && (
          <button type="button" className="danger" disabled={busy} onClick={() => void remove()}>
            {t('groups.icon.remove')}
          </button>
        )}
        <input
          ref={input}
          type="file"
          accept="image/png,image/jpeg,image/gif,image/webp"
          hidden
          aria-label={t('groups.icon.file')}
          onChange={(e) => void choose(e.target.files?.[0])}
        />
      </div>
      <ErrorLine error={error} />
      <StatusLine message={saved} />
    </div>
  );
}
