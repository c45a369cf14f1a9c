export { openTestEnv, withDatabase, TESTKIT_ENV, type TestEnv, type MinioAccess } from './test-env.ts';
export { BrowserAgent, type AgentAnswer } from './oidc/browser-agent.ts';
export {
  startOidcProvider,
  type TestAccount,
  type TestOidcProvider,
  type TestOidcProviderOptions,
} from './oidc/provider.ts';
export { startSmtpSink, type ReceivedMail, type SmtpSink } from './smtp/smtp-sink.ts';
export { openHostNetwork, hostNetworkAvailable, type Host, type HostNetwork } from './hosts/host-network.ts';
export { startToxiproxy, type Toxiproxy } from './hosts/toxiproxy.ts';
export { writeDiscordExport } from './exports/discord-export.ts';
