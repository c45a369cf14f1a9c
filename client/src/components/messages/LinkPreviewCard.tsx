import type { LinkPreview } from '@im/protocol';
import { useTranslation } from 'react-i18next';
import { useFileUrl } from '../../state/file-urls.ts';

/**
 * The card under a message with a link: site, title (the link), description
 * and the image the server stored (read through a signed URL, so the
 * browser never contacts the site). The author may take it off.
 */
export function LinkPreviewCard(props: { preview: LinkPreview; onRemove?: () => void }) {
  const { preview } = props;
  const { t } = useTranslation();
  return (
    <aside
      className="link-preview"
      aria-label={t('timeline.preview.label', { title: preview.title })}
      data-testid="link-preview"
    >
      <div className="link-preview-text">
        {preview.siteName && <div className="link-preview-site">{preview.siteName}</div>}
        <a
          className="link-preview-title"
          href={safeHref(preview.url)}
          target="_blank"
          rel="noopener noreferrer nofollow"
        >
          {preview.title}
        </a>
        {preview.description && <p className="link-preview-description">{preview.description}</p>}
      </div>
      {preview.imageFileId && <PreviewImage fileId={preview.imageFileId} />}
      {props.onRemove && (
        <button
          type="button"
          className="link-preview-remove"
          aria-label={t('timeline.preview.remove')}
          onClick={props.onRemove}
        >
          ×
        </button>
      )}
    </aside>
  );
}

function PreviewImage(props: { fileId: string }) {
  const url = useFileUrl(props.fileId);
  return url ? <img className="link-preview-image" src={url} alt="" loading="lazy" /> : null;
}

/** Only http(s) targets become links (the server only previews those; this keeps it so). */
const safeHref = (url: string) => (/^https?:\/\//i.test(url) ? url : undefined);
