import { useStore } from '../../state/store.ts';
import { fileUrl } from '../../state/files.ts';
import { Dialog } from '../common/Dialog.tsx';

/** The full image, over everything; Escape or the backdrop closes it. */
export function ImageViewer(props: { fileId: string; onClose: () => void }) {
  const info = useStore((s) => s.files[props.fileId]);
  const name = info && info !== 'missing' ? info.name : 'Image';
  return (
    <Dialog title={name} onClose={props.onClose} wide>
      <div className="image-viewer">
        <img src={fileUrl(props.fileId)} alt={name} data-testid="image-viewer" />
        <a href={fileUrl(props.fileId)} download={name} rel="noopener noreferrer">
          Download
        </a>
      </div>
    </Dialog>
  );
}
