import type { AuthOptions, Me } from '@im/protocol';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { loadAuthOptions } from '../../state/auth-options.ts';
import { startSsoLink } from '../../state/sso.ts';
import { ErrorLine } from '../common/ErrorLine.tsx';
import { useAction } from '../common/useAction.ts';

/** The provider's name in the sign-in button's label: "Sign in with Acme ID" -> "Acme ID". */
export function providerName(label: string): string {
  return label.replace(/^(sign|log)\s*in\s+(with|using|via)\s+/i, '').trim() || label;
}

/**
 * Single sign-on in my settings, when the server offers it: whether my
 * account is linked to the identity provider, and a button that links it
 * (the browser goes to the provider and comes back).
 */
export function SsoSection(props: { account: Me | null }) {
  const { t } = useTranslation();
  const [options, setOptions] = useState<AuthOptions | null>(null);
  const { busy, error, run } = useAction();
  useEffect(() => {
    let live = true;
    void loadAuthOptions().then((o) => live && setOptions(o));
    return () => {
      live = false;
    };
  }, []);
  if (!options?.oidc || !props.account) return null;
  const name = providerName(options.oidc.label);
  return (
    <section className="form" aria-label={t('account.sso')} data-testid="sso-settings">
      <h3>{t('account.sso')}</h3>
      {props.account.ssoLinked ? (
        <p className="hint">
          {props.account.hasPassword
            ? t('account.sso.linked', { name, label: options.oidc.label })
            : t('account.sso.linkedNoPassword', { name, label: options.oidc.label })}
        </p>
      ) : (
        <>
          <p className="hint">{t('account.sso.offer', { name, label: options.oidc.label })}</p>
          <ErrorLine error={error} />
          <div className="form-actions">
            <button type="button" disabled={busy} onClick={() => void run(startSsoLink)}>
              {t('account.sso.link', { name })}
            </button>
          </div>
        </>
      )}
    </section>
  );
}
