import { useEffect, useState } from 'react';
import { useFileUrl } from '../../state/file-urls.ts';
import { ensureFileInfo } from '../../state/files.ts';
import { useStore } from '../../state/store.ts';
import { formatSize } from './format.ts';
import { Icon } from '../common/Icon.tsx';

/** An attached file: images as a thumbnail that opens the viewer, anything else as a download. */
export function Attachment(props: { fileId: string; onOpenImage: (fileId: string) => void }) {
  const { fileId } = props;
  const info = useStore((s) => s.files[fileId]);
  // The thumbnail is made after upload: until it exists (or if it fails), show the image itself.
  const [thumbFailed, setThumbFailed] = useState(false);
  const thumbUrl = useFileUrl(fileId, 'thumbnail');
  const bytesUrl = useFileUrl(fileId, 'file');
  useEffect(() => ensureFileInfo(fileId), [fileId]);
  if (info === undefined) return <div className="attachment loading">Loading file…</div>;
  if (info === 'missing') return <div className="attachment missing">File not available</div>;
  if (info.mime.startsWith('image/') && info.mime !== 'image/svg+xml') {
    return (
      <button
        type="button"
        className="attachment image"
        aria-label={`Open image ${info.name}`}
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
    <a className="attachment file" href={bytesUrl ?? undefined} download={info.name} rel="noopener noreferrer">
      <Icon name="file" size={28} />
      <span className="file-name">{info.name}</span>
      <span className="file-size">{formatSize(info.size)}</span>
    </a>
  );
}
