import { useTranslation } from 'react-i18next';
import { useRef, useState } from 'react';
import { describeError } from '../../api/errors.ts';
import { http } from '../../api/http.ts';
import { uploadFile } from '../../api/upload.ts';
import { useStore } from '../../state/store.ts';
import { applyUserUpdated } from '../../state/users.ts';
import { Avatar } from '../common/Avatar.tsx';
import { squarePicture } from './square-picture.ts';
import { api, apiPath } from '../../api/api.ts';

/** My profile picture: chosen from my files, cut to a square here, shown to everyone at once. */
export function AvatarSection() {
  const { t } = useTranslation();
  const me = useStore((s) => s.me)!;
  const input = useRef<HTMLInputElement>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const choose = async (file: File | undefined) => {
    if (!file) return;
    setBusy(true);
    setStatus(t('shell.avatar.uploading'));
    try {
      const picture = await squarePicture(file);
      const uploaded = await uploadFile(picture, http.getToken(), () => undefined).promise;
      const user = await api.call('user.updateMe', { avatar: apiPath('file.download', { fileId: uploaded.id }) });
      applyUserUpdated(user);
      setStatus(t('shell.avatar.saved'));
    } catch (err) {
      setStatus(err instanceof Error && !('code' in err) ? err.message : describeError(err));
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  };
  return (
    <div className="form avatar-section">
      <h3>{t('shell.avatar.title')}</h3>
      <div className="avatar-row">
        <Avatar user={me} size={64} />
        <button type="button" disabled={busy} onClick={() => input.current?.click()}>
          {t('shell.avatar.choose')}
        </button>
        <input
          ref={input}
          type="file"
          accept="image/png,image/jpeg,image/gif,image/webp"
          hidden
          aria-label={t('shell.avatar.file')}
          onChange={(e) => void choose(e.target.files?.[0])}
        />
      </div>
      {status && (
        <p className="hint" role="status">
          {status}
        </p>
      )}
    </div>
  );
}
