import type { Bot, IncomingWebhook, IncomingWebhookWithUrl, OutgoingWebhook, WebhookDelivery } from '@im/protocol';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getState, initialState, setState } from '../../../../state/store.ts';
import { bob, group, GROUP_ID, panel } from '../../../../test/fixtures.ts';
import { apiError, fakeServer, type FakeAnswer, type SeenRequest } from '../../../../test/server.ts';
import { GroupSettingsDialog } from '../GroupSettingsDialog.tsx';
import { IntegrationsTab } from './IntegrationsTab.tsx';
import { apiPath } from '@im/api-client';
import { answerConfirmations } from '../../../../test/confirmations.ts';

const team = group({ myRole: 'admin', panels: [panel(1), panel(2, { name: 'news' })] });
const origin = window.location.origin;
const API = apiPath('group.get', { groupId: GROUP_ID });
const AT = '2026-11-20T09:00:00.000Z';

const deployer: Bot = {
  id: 'b1'.padEnd(24, '0'),
  username: 'deployer',
  nickname: 'Deployer',
  groupId: GROUP_ID,
  createdBy: bob.id,
  createdAt: AT,
};
/** An incoming hook as a list gives it: without its address. */
const listedHook = (n: number): IncomingWebhook => ({
  id: `h${n}`,
  groupId: GROUP_ID,
  panelId: panel(2).id,
  name: 'CI',
  botId: 'hb',
  createdBy: bob.id,
  createdAt: AT,
});
/** As create and renewal give it: with its address, that once. */
const hook = (n: number, secret: string): IncomingWebhookWithUrl => ({
  ...listedHook(n),
  url: `/hooks/h${n}/${secret}`,
});
const outgoing: OutgoingWebhook = {
  id: 'o1',
  groupId: GROUP_ID,
  name: 'Archive',
  url: 'https://archive.example/in',
  triggerWords: [],
  botId: 'ob',
  createdBy: bob.id,
  createdAt: AT,
  disabled: false,
};

type Routes = Record<string, (req: SeenRequest) => FakeAnswer>;

/** The server: lists empty unless `routes` ("METHOD path") answer otherwise. */
function serve(routes: Routes = {}) {
  return fakeServer((req) => {
    const route = routes[`${req.method} ${req.url}`];
    if (route) return route(req);
    if (req.method === 'GET') return { body: [] };
    return apiError(404, 'IM_ERR_NOT_FOUND', `no route ${req.method} ${req.url}`);
  });
}

const writes = (requests: SeenRequest[]) => requests.filter((r) => r.method !== 'GET');
const section = (name: string) => screen.getByRole('region', { name });
const form = (name: string) => screen.getByRole('form', { name });

beforeEach(() => setState({ groups: { [GROUP_ID]: team }, groupOrder: [GROUP_ID] }));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  setState(initialState());
});

describe('Integrations tab: bots', () => {
  it('asks for a name before creating a bot', async () => {
    const requests = serve();
    render(<IntegrationsTab group={team} />);
    const create = form('Create a bot');
    fireEvent.click(within(create).getByRole('button', { name: 'Create bot' }));
    expect(within(create).getByRole('alert').textContent).toBe('Give the bot a name.');
    expect(within(create).getByLabelText('Bot name').getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(within(create).getByLabelText('Bot name'), { target: { value: 'x'.repeat(65) } });
    fireEvent.click(within(create).getByRole('button', { name: 'Create bot' }));
    expect(within(create).getByRole('alert').textContent).toBe('A bot name is at most 64 characters.');
    await waitFor(() => expect(requests.length).toBeGreaterThan(0));
    expect(writes(requests)).toEqual([]);
  });

  it('creates a bot and shows its token once, with a copy button and a warning', async () => {
    let bots: Bot[] = [];
    const requests = serve({
      [`GET ${API}/bots`]: () => ({ body: bots }),
      [`POST ${API}/bots`]: () => {
        bots = [deployer];
        return { status: 201, body: { bot: { ...deployer, bot: true }, token: 'tok-123' } };
      },
    });
    render(<IntegrationsTab group={team} />);
    await screen.findByText('No bots yet.');
    fireEvent.change(screen.getByLabelText('Bot name'), { target: { value: '  Deployer ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create bot' }));

    const token = (await screen.findByLabelText('Token for Deployer')) as HTMLInputElement;
    expect(token.value).toBe('tok-123');
    expect(writes(requests)).toEqual([{ method: 'POST', url: `${API}/bots`, body: { name: 'Deployer' } }]);
    const shown = screen.getByRole('group', { name: 'Token for Deployer (shown once)' });
    expect(within(shown).getByText(/shown only this once/)).toBeTruthy();
    expect(within(shown).getByRole('button', { name: 'Copy token for deployer' })).toBeTruthy();
    const row = await within(section('Bots')).findByRole('listitem', { name: 'Deployer' });
    expect(row.textContent).toContain('@deployer');
    expect((screen.getByLabelText('Bot name') as HTMLInputElement).value).toBe('');

    fireEvent.click(within(shown).getByRole('button', { name: 'Done' }));
    expect(screen.queryByLabelText('Token for Deployer')).toBeNull();
  });

  it('makes a new token and deletes a bot only once confirmed', async () => {
    const confirm = answerConfirmations(false);
    const requests = serve({
      [`GET ${API}/bots`]: () => ({
        body: [
          deployer,
          {
            ...deployer,
            id: 'managed',
            username: 'hook-ci',
            nickname: 'CI',
            managedBy: { kind: 'incoming', id: 'h1' },
          },
        ],
      }),
      [`POST ${API}/bots/${deployer.id}/token`]: () => ({ body: { bot: deployer, token: 'tok-new' } }),
      [`DELETE ${API}/bots/${deployer.id}`]: () => ({ status: 204 }),
    });
    render(<IntegrationsTab group={team} />);
    const row = await screen.findByRole('listitem', { name: 'Deployer' });
    const managed = screen.getByRole('listitem', { name: 'CI' });
    expect(managed.textContent).toMatch(/posts for an incoming webhook/);
    expect(within(managed).queryByRole('button')).toBeNull();

    fireEvent.click(within(row).getByRole('button', { name: 'New token' }));
    fireEvent.click(within(row).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(confirm.asked).toHaveLength(2));
    expect(writes(requests)).toEqual([]);

    confirm.yes = true;
    fireEvent.click(within(row).getByRole('button', { name: 'New token' }));
    expect(((await within(row).findByLabelText('New token for Deployer')) as HTMLInputElement).value).toBe('tok-new');
    fireEvent.click(within(row).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Deployer' })).toBeNull());
    expect(writes(requests).map((r) => `${r.method} ${r.url}`)).toEqual([
      `POST ${API}/bots/${deployer.id}/token`,
      `DELETE ${API}/bots/${deployer.id}`,
    ]);
  });
});

describe('Integrations tab: incoming webhooks', () => {
  it('posts to the chosen panel and shows the full address with a curl example', async () => {
    const requests = serve({ [`POST ${API}/webhooks/incoming`]: () => ({ status: 201, body: hook(1, 's1') }) });
    render(<IntegrationsTab group={team} />);
    const create = form('Create an incoming webhook');
    fireEvent.click(within(create).getByRole('button', { name: 'Create incoming webhook' }));
    expect(within(create).getByRole('alert').textContent).toBe('Give the webhook a name.');
    const picker = within(create).getByLabelText('Panel') as HTMLSelectElement;
    expect([...picker.options].map((o) => o.textContent)).toEqual(['#general', '#news']);
    fireEvent.change(picker, { target: { value: panel(2).id } });
    fireEvent.change(within(create).getByLabelText('Name'), { target: { value: 'CI' } });
    fireEvent.click(within(create).getByRole('button', { name: 'Create incoming webhook' }));

    const row = await screen.findByRole('listitem', { name: 'CI' });
    expect(writes(requests)).toEqual([
      { method: 'POST', url: `${API}/webhooks/incoming`, body: { panelId: panel(2).id, name: 'CI' } },
    ]);
    expect(row.textContent).toContain('posts in #news');
    const url = `${origin}/hooks/h1/s1`;
    expect((within(row).getByLabelText('Webhook URL') as HTMLInputElement).value).toBe(url);
    expect(within(row).getByTestId('curl-example').textContent).toBe(
      `curl -X POST -H 'content-type: application/json' -d '{"text":"Hello"}' ${url}`,
    );
    expect(within(row).getByRole('button', { name: 'Copy webhook url' })).toBeTruthy();
    // Shown once: Done hides it for good.
    fireEvent.click(within(row).getByRole('button', { name: 'Done' }));
    expect(within(row).queryByLabelText('Webhook URL')).toBeNull();
    expect(within(row).getByTestId('address-hidden')).toBeTruthy();
  });

  it('lists hooks without an address, and gives a new one, shown once, when asked', async () => {
    answerConfirmations(true);
    serve({
      [`GET ${API}/webhooks/incoming`]: () => ({ body: [listedHook(1)] }),
      [`POST ${API}/webhooks/incoming/h1/secret`]: () => ({ body: hook(1, 's2') }),
    });
    render(<IntegrationsTab group={team} />);
    const row = await screen.findByRole('listitem', { name: 'CI' });
    expect(within(row).queryByLabelText('Webhook URL')).toBeNull();
    expect(within(row).getByTestId('address-hidden').textContent).toMatch(/new secret/);
    fireEvent.click(within(row).getByRole('button', { name: 'New secret' }));
    await waitFor(() =>
      expect((within(row).getByLabelText('Webhook URL') as HTMLInputElement).value).toBe(`${origin}/hooks/h1/s2`),
    );
  });

  it('says a hook is suspended (its maker is no longer an admin) until it gets a new secret', async () => {
    answerConfirmations(true);
    serve({
      [`GET ${API}/webhooks/incoming`]: () => ({ body: [{ ...listedHook(1), suspended: true }] }),
      [`POST ${API}/webhooks/incoming/h1/secret`]: () => ({ body: hook(1, 's2') }),
    });
    render(<IntegrationsTab group={team} />);
    const row = await screen.findByRole('listitem', { name: 'CI' });
    expect(within(row).getByTestId('suspended-note').textContent).toMatch(/^Suspended: .*no longer an admin/);
    fireEvent.click(within(row).getByRole('button', { name: 'New secret' }));
    await waitFor(() => expect(within(row).queryByTestId('suspended-note')).toBeNull());
  });
});

describe('Integrations tab: outgoing webhooks', () => {
  const fill = (label: string | RegExp, value: string) =>
    fireEvent.change(within(form('Create an outgoing webhook')).getByLabelText(label), { target: { value } });
  const submit = () =>
    fireEvent.click(
      within(form('Create an outgoing webhook')).getByRole('button', { name: 'Create outgoing webhook' }),
    );
  const alert = () => within(form('Create an outgoing webhook')).getByRole('alert').textContent;

  it('checks the address and the trigger words before sending', async () => {
    const requests = serve();
    render(<IntegrationsTab group={team} />);
    submit();
    expect(alert()).toBe('Enter the address to send to.');
    fill('URL', 'example.com/hook');
    submit();
    expect(alert()).toBe('Enter a full address, starting with https:// or http://.');
    fill('URL', 'ftp://example.com/hook');
    submit();
    expect(alert()).toBe('Only http:// and https:// addresses can be called.');
    fill('URL', 'https://example.com/hook');
    fill(/^Trigger words/, 'deploy now, status');
    submit();
    expect(alert()).toBe('Trigger words are single words, separated by commas.');
    await waitFor(() => expect(requests.length).toBeGreaterThan(0));
    expect(writes(requests)).toEqual([]);
  });

  it("shows the server's reason when it refuses the address", async () => {
    serve({
      [`POST ${API}/webhooks/outgoing`]: () => apiError(400, 'IM_ERR_VALIDATION', 'url: 10.0.0.5 is a private address'),
    });
    render(<IntegrationsTab group={team} />);
    fill('URL', 'http://10.0.0.5/hook');
    submit();
    await waitFor(() => expect(alert()).toBe('url: 10.0.0.5 is a private address'));
    expect((within(form('Create an outgoing webhook')).getByLabelText('URL') as HTMLInputElement).value).toBe(
      'http://10.0.0.5/hook',
    );
  });

  it('sends all panels and the parsed words, then shows the signing secret once', async () => {
    const requests = serve({
      [`POST ${API}/webhooks/outgoing`]: (req) => ({
        status: 201,
        body: { ...outgoing, ...(req.body as object), secret: 'sec-1' },
      }),
    });
    render(<IntegrationsTab group={team} />);
    const picker = within(form('Create an outgoing webhook')).getByLabelText('Panel') as HTMLSelectElement;
    expect(picker.selectedOptions[0]!.textContent).toBe('All panels');
    fill('URL', ' https://archive.example/in ');
    fill(/^Name/, 'Archive');
    fill(/^Trigger words/, ' deploy, , status,deploy ');
    submit();
    const secret = (await screen.findByLabelText('Signing secret for Archive')) as HTMLInputElement;
    expect(secret.value).toBe('sec-1');
    expect(writes(requests)).toEqual([
      {
        method: 'POST',
        url: `${API}/webhooks/outgoing`,
        body: { url: 'https://archive.example/in', name: 'Archive', triggerWords: ['deploy', 'status'] },
      },
    ]);
    const row = screen.getByRole('listitem', { name: 'Archive' });
    expect(row.textContent).toContain('All panels · messages starting with deploy, status');
    expect(row.textContent).not.toContain('sec-1');
  });

  it('shows the delivery log with status badges, and refreshes it', async () => {
    const deliveries: WebhookDelivery[] = [
      {
        id: 'd2',
        event: 'message.created',
        status: 'retrying',
        attempts: 2,
        responseStatus: 503,
        lastError: 'HTTP 503',
        at: AT,
        nextAttemptAt: AT,
      },
      { id: 'd1', event: 'message.created', status: 'delivered', attempts: 1, responseStatus: 200, at: AT },
    ];
    const requests = serve({
      [`GET ${API}/webhooks/outgoing`]: () => ({ body: [outgoing] }),
      [`GET ${API}/webhooks/outgoing/o1/deliveries`]: () => ({ body: deliveries }),
    });
    render(<IntegrationsTab group={team} />);
    const row = await screen.findByRole('listitem', { name: 'Archive' });
    const toggle = within(row).getByRole('button', { name: 'Deliveries' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const table = await within(row).findByRole('table', { name: 'Deliveries to Archive' });
    const lines = within(table).getAllByTestId('delivery');
    expect(lines.map((l) => l.getAttribute('data-status'))).toEqual(['retrying', 'delivered']);
    expect(within(lines[0]!).getByText('retrying').className).toBe('state-tag');
    expect(within(lines[1]!).getByText('delivered').className).toBe('state-tag ok');
    expect(lines[0]!.textContent).toContain('HTTP 503 · next attempt');
    const asked = () => requests.filter((r) => r.url.endsWith('/deliveries')).length;
    expect(asked()).toBe(1);
    fireEvent.click(within(row).getByRole('button', { name: 'Refresh deliveries' }));
    await waitFor(() => expect(asked()).toBe(2));
  });
});

describe('Integrations tab: a disabled outgoing webhook', () => {
  it('says it is disabled and lets the admin turn it back on', async () => {
    const requests = serve({
      [`GET ${API}/webhooks/outgoing`]: () => ({
        body: [
          { ...outgoing, disabled: true, failingSince: AT },
          { ...outgoing, id: 'o2', name: 'Fine' },
        ],
      }),
      [`PATCH ${API}/webhooks/outgoing/o1`]: () => ({ body: { ...outgoing, disabled: false } }),
    });
    render(<IntegrationsTab group={team} />);
    const row = await screen.findByRole('listitem', { name: 'Archive' });
    expect(row.getAttribute('data-disabled')).toBe('true');
    expect(within(row).getByTestId('hook-disabled').textContent).toContain('Nothing is sent to it');
    const healthy = screen.getByRole('listitem', { name: 'Fine' });
    expect(within(healthy).queryByTestId('hook-disabled')).toBeNull();
    fireEvent.click(within(row).getByRole('button', { name: 'Turn back on Archive' }));
    await waitFor(() => expect(within(row).queryByTestId('hook-disabled')).toBeNull());
    expect(row.getAttribute('data-disabled')).toBe('false');
    expect(writes(requests)).toEqual([
      { method: 'PATCH', url: `${API}/webhooks/outgoing/o1`, body: { disabled: false } },
    ]);
  });
});

describe('Integrations tab: a suspended outgoing webhook or command', () => {
  it('says so until a new secret lifts it; a disabled hook stays disabled until turned back on', async () => {
    answerConfirmations(true);
    const command = { id: 'k1', groupId: GROUP_ID, trigger: 'deploy', url: 'https://ops.example/deploy', botId: 'kb' };
    serve({
      [`GET ${API}/webhooks/outgoing`]: () => ({ body: [{ ...outgoing, disabled: true, suspended: true }] }),
      [`POST ${API}/webhooks/outgoing/o1/secret`]: () => ({ body: { ...outgoing, disabled: true, secret: 's2' } }),
      [`GET ${API}/commands`]: () => ({ body: [{ ...command, suspended: true }] }),
      [`POST ${API}/commands/k1/secret`]: () => ({ body: { ...command, secret: 'c2' } }),
    });
    render(<IntegrationsTab group={team} />);
    const hookRow = await screen.findByRole('listitem', { name: 'Archive' });
    expect(within(hookRow).getByTestId('suspended-note')).toBeTruthy();
    expect(within(hookRow).getByTestId('hook-disabled')).toBeTruthy();
    fireEvent.click(within(hookRow).getByRole('button', { name: 'New secret' }));
    await waitFor(() => expect(within(hookRow).queryByTestId('suspended-note')).toBeNull());
    expect(within(hookRow).getByTestId('hook-disabled')).toBeTruthy();

    const commandRow = await screen.findByRole('listitem', { name: '/deploy' });
    expect(within(commandRow).getByTestId('suspended-note')).toBeTruthy();
    fireEvent.click(within(commandRow).getByRole('button', { name: 'New secret' }));
    await waitFor(() => expect(within(commandRow).queryByTestId('suspended-note')).toBeNull());
  });

  it('shows why turning a disabled hook back on failed', async () => {
    serve({
      [`GET ${API}/webhooks/outgoing`]: () => ({ body: [{ ...outgoing, disabled: true }] }),
      [`PATCH ${API}/webhooks/outgoing/o1`]: () => apiError(403, 'IM_ERR_FORBIDDEN', 'Only admins can do that'),
    });
    render(<IntegrationsTab group={team} />);
    const row = await screen.findByRole('listitem', { name: 'Archive' });
    fireEvent.click(within(row).getByRole('button', { name: 'Turn back on Archive' }));
    expect((await within(row).findByRole('alert')).textContent).toContain('Only admins can do that');
    expect(within(row).getByTestId('hook-disabled')).toBeTruthy();
  });
});

describe('Integrations tab: commands', () => {
  const create = () => form('Create a command');
  const fill = (label: string | RegExp, value: string) =>
    fireEvent.change(within(create()).getByLabelText(label), { target: { value } });
  const submit = () => fireEvent.click(within(create()).getByRole('button', { name: 'Create command' }));

  it('checks the trigger and the address', async () => {
    const requests = serve();
    render(<IntegrationsTab group={team} />);
    submit();
    expect(within(create()).getByRole('alert').textContent).toMatch(/^Enter the word that runs the command/);
    fill('Trigger', 'Deploy now');
    submit();
    expect(within(create()).getByRole('alert').textContent).toBe(
      'A trigger is 1 to 32 lower-case letters, digits, - or _, with no spaces.',
    );
    fill('Trigger', '/me');
    submit();
    expect(within(create()).getByRole('alert').textContent).toBe('/me is built in: choose another trigger.');
    fill('Trigger', 'deploy');
    submit();
    expect(within(create()).getByRole('alert').textContent).toBe('Enter the address to send to.');
    await waitFor(() => expect(requests.length).toBeGreaterThan(0));
    expect(writes(requests)).toEqual([]);
  });

  it('creates a command, shows its secret once, and offers it to the composer at once', async () => {
    const requests = serve({
      [`POST ${API}/commands`]: (req) => ({
        status: 201,
        body: {
          id: 'k1',
          groupId: GROUP_ID,
          botId: 'kb',
          createdBy: bob.id,
          createdAt: AT,
          ...(req.body as object),
          secret: 'cmd-secret',
        },
      }),
    });
    render(<IntegrationsTab group={team} />);
    await screen.findByText('No commands yet.');
    fill('Trigger', '/deploy');
    fill('URL', 'https://ops.example/deploy');
    fill(/^Description/, 'Ship it');
    submit();
    expect(((await screen.findByLabelText('Signing secret for /deploy')) as HTMLInputElement).value).toBe('cmd-secret');
    expect(writes(requests)).toEqual([
      {
        method: 'POST',
        url: `${API}/commands`,
        body: { trigger: 'deploy', url: 'https://ops.example/deploy', description: 'Ship it' },
      },
    ]);
    expect(screen.getByRole('listitem', { name: '/deploy' }).textContent).toContain('Ship it');
    const cached = getState().commands[GROUP_ID]!;
    expect(cached.map((c) => c.trigger)).toEqual(['deploy']);
    expect(cached[0]).not.toHaveProperty('secret');
  });
});

describe('Group settings', () => {
  it('offers the Integrations tab to admins only', () => {
    serve();
    const { unmount } = render(<GroupSettingsDialog group={team} onClose={vi.fn()} />);
    expect(screen.getByRole('tab', { name: 'Integrations' })).toBeTruthy();
    unmount();
    render(<GroupSettingsDialog group={{ ...team, myRole: 'member' }} onClose={vi.fn()} />);
    expect(screen.queryByRole('tab', { name: 'Integrations' })).toBeNull();
  });
});
