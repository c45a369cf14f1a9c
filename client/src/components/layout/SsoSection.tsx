import type { AuthOptions, Me } from '@im/protocol';
import { useEffect, useState } from 'react';
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
    <section className="form" aria-label="Single sign-on" data-testid="sso-settings">
      <h3>Single sign-on</h3>
      {props.account.ssoLinked ? (
        <p className="hint">
          Your account is linked to {name}: you can sign in with “{options.oidc.label}”.
          {props.account.hasPassword ? '' : ' It has no password.'}
        </p>
      ) : (
        <>
          <p className="hint">
            Link your {name} account to sign in here with “{options.oidc.label}”.
          </p>
          <ErrorLine error={error} />
          <div className="form-actions">
            <button type="button" disabled={busy} onClick={() => void run(startSsoLink)}>
              Link {name} account
            </button>
          </div>
        </>
      )}
    </section>
  );
}
