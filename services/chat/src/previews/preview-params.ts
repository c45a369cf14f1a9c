import { idParam, strict } from '@im/sdk';

const text = (max: number) => ({ type: 'string', max, optional: true }) as const;

/** Parameters of the link preview actions (fastest-validator). */
export const previewParams = {
  claim: strict({ messageId: idParam, url: { type: 'string', min: 1, max: 2048 } }),
  set: strict({
    messageId: idParam,
    preview: {
      type: 'object',
      strict: true,
      props: {
        url: { type: 'string', min: 1, max: 2048 },
        title: { type: 'string', min: 1, max: 300 },
        description: text(1000),
        siteName: text(200),
        imageFileId: { ...idParam, optional: true },
      },
    },
  }),
  remove: strict({ messageId: idParam }),
} as const;
