import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { takeSignInNotice } from '../../state/sign-in-notice.ts';

/** A line above the sign-in form when the last session ended for a reason worth saying (the account was deleted). */
export function SignInNotice() {
  const { t } = useTranslation();
  const [notice] = useState(takeSignInNotice);
  if (notice !== 'accountDeleted') return null;
  return (
    <p className="sign-in-notice" role="status" data-testid="sign-in-notice">
      {t('account.delete.done')}
    </p>
  );
}
