import { idParam, strict } from '@im/sdk';

/** The file service's action parameters (fastest-validator). */
export const fileParams = {
  register: strict({
    key: { type: 'string', pattern: /^[a-z0-9][a-z0-9/_-]*[a-z0-9]$/, max: 200 },
    name: { type: 'string', min: 1, max: 255 },
    size: { type: 'number', integer: true, min: 0 },
    mime: { type: 'string', min: 3, max: 255 },
    sha256: { type: 'string', pattern: /^[0-9a-f]{64}$/ },
    groupId: { ...idParam, optional: true },
  }),
  access: strict({ fileId: idParam }),
  usage: strict({ userId: idParam }),
  useAsAvatar: strict({ fileId: idParam, userId: idParam }),
  useAsGroupIcon: strict({ fileId: idParam, userId: idParam, groupId: idParam }),
  releaseGroupIcon: strict({ fileId: idParam, groupId: idParam }),
  removeGroupIcon: strict({ fileId: idParam, groupId: idParam }),
  info: strict({ fileId: idParam }),
  url: strict({ fileId: idParam, variant: { type: 'enum', values: ['file', 'thumbnail'], optional: true } }),
  locate: strict({ fileId: idParam }),
  removePreviewImage: strict({ fileId: idParam }),
  attach: strict({ fileIds: { type: 'array', items: idParam, max: 10 }, userId: idParam, converseId: idParam }),
  share: strict({
    fileIds: { type: 'array', items: idParam, max: 10 },
    fromConverseId: idParam,
    toConverseId: idParam,
  }),
  // Only for the OpenAPI document: the gateway serves these routes itself.
  download: strict({ fileId: idParam }),
} as const;
