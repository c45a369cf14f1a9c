// `t('key')` accepts only keys of the English catalog: a typo or a key not
// yet written does not compile.
import 'i18next';
import type { en } from './locales/en/index.ts';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
    keySeparator: false;
    nsSeparator: false;
  }
}
