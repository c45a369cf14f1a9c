import { useTranslation } from 'react-i18next';
import { useStore } from '../../state/store.ts';
import { useFileUrl } from '../../state/file-urls.ts';
import { Dialog } from '../common/Dialog.tsx';

/** The full image, over everything; Escape or the backdrop closes it. */
export function ImageViewer(props: { fileId: string; onClose: () => void }) {
  const { t } = useTranslation();
  const info = useStore((s) => s.files[props.fileId]);
  const name = info && info !== 'missing' ? info.name : t('posts.image');
  const url = useFileUrl(props.fileId) ?? undefined;
  return (
    <Dialog title={name} onClose={props.onClose} wide>
      <div className="image-viewer">
        <img src={url} alt={name} data-testid="image-viewer" />
        <a href={url} download={name} rel="noopener noreferrer">
          {t('posts.download')}
        </a>
      </div>
    </Dialog>
  );
}
