import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { tool } from './helm.ts';

const COMPOSE_FILE = fileURLToPath(new URL('../../../docker-compose.yml', import.meta.url));
const run = promisify(execFile);

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string };
  environment?: Record<string, string | null>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  volumes?: Array<{ type: string; source?: string }>;
}
interface ComposeModel {
  name: string;
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

/**
 * The file as compose-spec (compose-go, the loader docker compose is built on)
 * reads it: checked against the Compose Specification's schema, then
 * normalised. Variables are left as written: the file requires secrets that a
 * check has no business inventing.
 */
async function load(file: string): Promise<ComposeModel> {
  const composeSpec = tool('compose-spec');
  try {
    // Relative paths (the build context) are taken from the working directory, as docker compose takes them.
    const { stdout } = await run(composeSpec, ['--no-interpolation', '--format', 'json', file], {
      cwd: dirname(file),
    });
    return JSON.parse(stdout) as ComposeModel;
  } catch (err) {
    const { stderr = '', message } = err as { stderr?: string; message: string };
    throw new Error(`compose-spec rejected ${file}: ${stderr || message}`);
  }
}

const NODES = ['gateway', 'services-core', 'services-edge'];

describe('docker-compose.yml', () => {
  let model: ComposeModel;
  let scratch: string;

  before(() => {
    scratch = mkdtempSync(join(tmpdir(), 'im-compose-'));
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  // The first test loads the file (a rejection fails it with compose-spec's message); the others read the model.
  it('matches the Compose Specification', async () => {
    model = await load(COMPOSE_FILE);
    assert.equal(model.name, 'im-platform');
    assert.ok(NODES.every((name) => model.services[name]));
  });

  it('the check rejects a file that does not match', async () => {
    const text = readFileSync(COMPOSE_FILE, 'utf8');
    const broken = join(scratch, 'docker-compose.yml');
    // A misspelt key on one service.
    writeFileSync(broken, text.replace(/^ {2}nginx:\n/m, '  nginx:\n    restart_policy: always\n'));
    await assert.rejects(load(broken), /services\.nginx.*restart_policy/s);
    // A port mapping that is neither a string nor a number.
    writeFileSync(broken, text.replace("ports: ['3000:80']", 'ports: [[3000, 80]]'));
    await assert.rejects(load(broken), /services\.nginx\.ports/);
  });

  it('runs every node of the platform from the one image the Dockerfile builds', () => {
    for (const name of NODES) {
      const service = model.services[name]!;
      assert.equal(service.image, undefined, `${name} builds the image`);
      assert.equal(service.build?.dockerfile, 'Dockerfile');
      assert.equal(service.build?.context, fileURLToPath(new URL('../../../', import.meta.url)).replace(/\/$/, ''));
    }
    const services = NODES.map((name) => model.services[name]!.environment?.SERVICES).join(',');
    assert.deepEqual(services.split(',').sort(), [
      'call',
      'chat',
      'file',
      'gateway',
      'group',
      'import',
      'integration',
      'mail',
      'moderation',
      'push',
      'user',
    ]);
  });

  it('checks each node on /ready where it answers it: gateways on PORT, service nodes on HEALTH_PORT', () => {
    for (const name of NODES) {
      const service = model.services[name]!;
      const port = name === 'gateway' ? service.environment?.PORT : service.environment?.HEALTH_PORT;
      assert.ok(port, `${name} sets the port it answers /ready on`);
      assert.equal(service.healthcheck?.test[0], 'CMD');
      assert.ok(
        service.healthcheck.test.some((arg) => arg.includes(`http://127.0.0.1:${port}/ready`)),
        `${name}: ${service.healthcheck.test.join(' ')}`,
      );
    }
  });

  it('names only services and volumes it declares, and asks for its secrets', () => {
    for (const [name, service] of Object.entries(model.services)) {
      for (const dependency of Object.keys(service.depends_on ?? {}))
        assert.ok(model.services[dependency], `${name} depends on ${dependency}, which is declared`);
      for (const volume of service.volumes ?? [])
        if (volume.type === 'volume') assert.ok(model.volumes?.[volume.source!], `${name} mounts ${volume.source}`);
    }
    for (const name of NODES) {
      const env = model.services[name]!.environment!;
      assert.match(env.SECRET!, /^\$\{SECRET:\?/, `${name} refuses to start without SECRET`);
      assert.match(env.TRANSPORTER!, /^nats:\/\//);
    }
  });
});
