import './timeline.css';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FileInfo } from '@im/protocol';
import { useFileUrl } from '../../state/file-urls.ts';
import { ensureFileInfo } from '../../state/files.ts';
import { useStore } from '../../state/store.ts';
import { formatSize } from './format.ts';
import { Icon } from '../common/Icon.tsx';

/** Images the server makes a thumbnail of (SVG is shown as a file: it may carry script). */
const previewable = (info: FileInfo | 'missing' | undefined): boolean =>
  typeof info === 'object' && info.mime.startsWith('image/') && info.mime !== 'image/svg+xml';

/** An attached file: images as a thumbnail that opens the viewer, anything else as a download. */
export function Attachment(props: { fileId: string; onOpenImage: (fileId: string) => void }) {
  const { fileId } = props;
  const { t } = useTranslation();
  const info = useStore((s) => s.files[fileId]);
  const image = previewable(info);
  // The thumbnail is made after upload: until it exists (or if it fails), show the image itself.
  // Other kinds have none: nothing is asked for them (each ask would be a 404).
  const [thumbFailed, setThumbFailed] = useState(false);
  const thumbUrl = useFileUrl(fileId, image ? 'thumbnail' : null);
  const bytesUrl = useFileUrl(fileId, 'file');
  useEffect(() => ensureFileInfo(fileId), [fileId]);
  if (info === undefined) return <div className="attachment loading">{t('timeline.file.loading')}</div>;
  if (info === 'missing') return <div className="attachment missing">{t('timeline.file.missing')}</div>;
  if (image) {
    return (
      <button
        type="button"
        className="attachment image"
        aria-label={t('timeline.file.openImage', { name: info.name })}
        onClick={() => props.onOpenImage(fileId)}
      >
        <img
          src={(thumbFailed || thumbUrl === null ? bytesUrl : thumbUrl) ?? undefined}
          alt={info.name}
          loading="lazy"
          data-testid="thumbnail"
          onError={() => setThumbFailed(true)}
        />
      </button>
    );
  }
  return (
    <a
      className="attachment file"
      href={bytesUrl ?? undefined}
      download={info.name}
      rel="noopener noreferrer"
      data-testid="file-card"
    >
      <Icon name="file" size={28} />
      <span className="file-name">{info.name}</span>
      <span className="file-size">{formatSize(info.size)}</span>
    </a>
  );
}
