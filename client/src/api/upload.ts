import { t } from '../i18n/i18n.ts';
import type { FileInfo } from '@im/protocol';
import { ApiRequestError, networkError } from './errors.ts';
import { http } from './http.ts';
import { apiPath, type ResponseOf } from './api.ts';

export type { FileInfo };

export interface UploadHandle {
  promise: Promise<FileInfo>;
  abort(): void;
}

/**
 * Uploads one file as multipart/form-data. fetch() reports no upload progress,
 * so this uses XMLHttpRequest; `onProgress` gets a fraction in [0, 1].
 */
export function uploadFile(file: File, token: string | null, onProgress: (fraction: number) => void): UploadHandle {
  return postFile<ResponseOf<'file.register'>>(apiPath('file.register'), 201, file, token, onProgress);
}

/**
 * Posts one file as the `file` part of a multipart/form-data body to `url`
 * (its answer `okStatus` with a JSON body), with upload progress.
 */
export function postFile<T>(
  url: string,
  okStatus: number,
  file: File,
  token: string | null,
  onProgress: (fraction: number) => void,
): { promise: Promise<T>; abort(): void } {
  const xhr = new XMLHttpRequest();
  const promise = new Promise<T>((resolve, reject) => {
    xhr.open('POST', url);
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.responseType = 'json';
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      if (xhr.status === okStatus) {
        onProgress(1);
        resolve(xhr.response as T);
        return;
      }
      const body = xhr.response as { error?: { code?: string; message?: string } } | null;
      reject(
        new ApiRequestError(
          xhr.status,
          body?.error?.code ?? `HTTP_${xhr.status}`,
          body?.error?.message ?? t('errors.uploadFailed', { status: xhr.status }),
        ),
      );
    };
    xhr.onerror = () => reject(networkError());
    xhr.onabort = () => reject(new ApiRequestError(0, 'ABORTED', t('errors.uploadCancelled')));
    const form = new FormData();
    form.append('file', file, file.name);
    // An upload of a session that ends stops with it.
    http.sessionSignal()?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
  return { promise, abort: () => xhr.abort() };
}
