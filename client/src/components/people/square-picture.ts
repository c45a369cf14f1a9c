import { t } from '../../i18n/i18n.ts';
/** Side of the square a profile picture is stored at: sharp on any screen density at the sizes shown. */
export const AVATAR_SIDE = 256;

/**
 * The middle square of an image, scaled to AVATAR_SIDE and encoded as WebP
 * (PNG where the browser cannot): small enough for the server's 1 MB limit
 * whatever the camera made, and the same shape wherever it is shown.
 */
export async function squarePicture(file: Blob): Promise<File> {
  const bitmap = await createImageBitmap(file);
  try {
    const side = Math.min(bitmap.width, bitmap.height);
    const canvas = document.createElement('canvas');
    canvas.width = AVATAR_SIDE;
    canvas.height = AVATAR_SIDE;
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error(t('shell.avatar.cannotResize'));
    ctx.drawImage(
      bitmap,
      (bitmap.width - side) / 2,
      (bitmap.height - side) / 2,
      side,
      side,
      0,
      0,
      AVATAR_SIDE,
      AVATAR_SIDE,
    );
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/webp', 0.85));
    if (!blob) throw new Error(t('shell.avatar.cannotEncode'));
    return new File([blob], blob.type === 'image/webp' ? 'avatar.webp' : 'avatar.png', { type: blob.type });
  } finally {
    bitmap.close();
  }
}
