import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Provider } from 'oidc-provider';

/** How the login page finds a test account by the name typed into it. */
export type AccountByLogin = (login: string) => { sub: string } | undefined;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(uid: string, problem?: string): string {
  const action = `/interaction/${encodeURIComponent(uid)}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Test provider</title></head>
<body>
<h1>Test identity provider</h1>
${problem ? `<p role="alert">${escapeHtml(problem)}</p>` : ''}
<form method="post" action="${action}/login">
<label>Provider username <input name="login" autocomplete="off" autofocus></label>
<button type="submit">Sign in and allow</button>
</form>
<form method="post" action="${action}/abort"><button type="submit">Cancel</button></form>
</body></html>
`;
}

async function formField(req: IncomingMessage, name: string): Promise<string> {
  let body = '';
  for await (const chunk of req) {
    body += String(chunk);
    if (body.length > 4096) throw new Error('form too large');
  }
  return new URLSearchParams(body).get(name) ?? '';
}

function html(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(body);
}

/**
 * The provider's interaction pages, written for tests (the provider's own
 * development pages are off): a form that takes a test account's name and
 * answers login and consent in one step, and a Cancel that answers
 * access_denied. Serves /interaction/:uid[/login|/abort]; false for other paths.
 */
export function loginPages(provider: Provider, accountByLogin: AccountByLogin) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    const match = /^\/interaction\/([A-Za-z0-9_-]+)(\/login|\/abort)?$/.exec(
      new URL(req.url ?? '/', 'http://x').pathname,
    );
    if (!match) return false;
    const [, uid = '', step] = match;
    if (!step && req.method === 'GET') {
      await provider.interactionDetails(req, res);
      html(res, 200, page(uid));
      return true;
    }
    if (req.method !== 'POST') {
      html(res, 405, 'Method not allowed');
      return true;
    }
    const details = await provider.interactionDetails(req, res);
    if (step === '/abort') {
      await provider.interactionFinished(
        req,
        res,
        { error: 'access_denied', error_description: 'The user cancelled' },
        { mergeWithLastSubmission: false },
      );
      return true;
    }
    const login = (await formField(req, 'login')).trim();
    const account = accountByLogin(login);
    if (!account) {
      html(res, 200, page(uid, `No test account is called "${login}".`));
      return true;
    }
    const grant = new provider.Grant({ accountId: account.sub, clientId: String(details.params.client_id) });
    grant.addOIDCScope(String(details.params.scope ?? 'openid'));
    const grantId = await grant.save();
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId: account.sub }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
    return true;
  };
}
