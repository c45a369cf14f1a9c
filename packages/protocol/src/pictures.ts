/** Pictures (profile pictures, group icons) are small: the app uploads a square of at most 512 px. */
export const PICTURE_MAX_BYTES = 1024 * 1024;

/** Image types a picture may have (sniffed from the bytes); SVG is refused (it can carry script). */
export const PICTURE_TYPES: readonly string[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];
