import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import { parse } from 'yaml';
import { SERVICE_NAMES } from '@im/sdk';
import { CHART_DIR, FULL_VALUES, helm, render } from './helm.ts';
import { schemaErrors, type KubernetesObject } from './kubernetes-schema.ts';

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string } };
}
interface Container {
  name: string;
  image: string;
  env?: EnvVar[];
  ports?: Array<{ name?: string; containerPort: number }>;
  livenessProbe?: { httpGet?: { path: string; port: string | number } };
  readinessProbe?: { httpGet?: { path: string; port: string | number } };
  lifecycle?: { preStop?: { exec?: { command: string[] } } };
  securityContext?: { readOnlyRootFilesystem?: boolean; allowPrivilegeEscalation?: boolean };
}
interface PodSpec {
  containers: Container[];
  terminationGracePeriodSeconds?: number;
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number };
}
interface DeploymentSpec {
  replicas?: number;
  selector: { matchLabels: Record<string, string> };
  template: { metadata: { labels: Record<string, string> }; spec: PodSpec };
}
type Deployment = KubernetesObject & { spec: DeploymentSpec };

const ofKind = <T extends KubernetesObject>(objects: KubernetesObject[], kind: string) =>
  objects.filter((o) => o.kind === kind) as T[];
const deployments = (objects: KubernetesObject[]) => ofKind<Deployment>(objects, 'Deployment');
const gatewayDeployment = (objects: KubernetesObject[]) => {
  const found = deployments(objects).filter((d) => d.metadata.labels?.['app.kubernetes.io/component'] === 'gateway');
  assert.equal(found.length, 1, 'one gateway Deployment');
  return found[0]!;
};
const container = (d: Deployment) => {
  assert.equal(d.spec.template.spec.containers.length, 1, `${d.metadata.name} runs one container`);
  return d.spec.template.spec.containers[0]!;
};
const envOf = (d: Deployment, name: string) => container(d).env?.find((e) => e.name === name);
const matches = (selector: Record<string, string>, labels: Record<string, string>) =>
  Object.entries(selector).every(([k, v]) => labels[k] === v);

const defaultValues = parse(readFileSync(`${CHART_DIR}values.yaml`, 'utf8')) as {
  image: { repository: string };
  existingSecret: { name: string };
};
const fullValues = parse(readFileSync(FULL_VALUES, 'utf8')) as {
  image: { repository: string; tag: string };
  existingSecret: { name: string };
};

describe('Helm chart deploy/helm/im-platform', () => {
  let byDefault: KubernetesObject[];
  let full: KubernetesObject[];
  // A failed render (helm missing, a template error) fails each test with its message, not as "cancelled".
  let renderFailure: unknown;
  const rendered = () => {
    if (renderFailure) throw renderFailure;
  };
  const both = () => {
    rendered();
    return [
      { values: 'default', objects: byDefault, secret: defaultValues.existingSecret.name },
      { values: 'full', objects: full, secret: fullValues.existingSecret.name },
    ];
  };

  before(async () => {
    try {
      [byDefault, full] = await Promise.all([render(), render('-f', FULL_VALUES)]);
    } catch (err) {
      renderFailure = err;
    }
  });

  it('passes helm lint --strict with the default and the full values', async () => {
    await Promise.all([helm('lint', '--strict', CHART_DIR), helm('lint', '--strict', CHART_DIR, '-f', FULL_VALUES)]);
  });

  it('renders only objects that match the Kubernetes API schemas', () => {
    for (const { values, objects } of both()) {
      assert.ok(objects.length >= 6, `${values}: renders the chart's objects (${objects.length})`);
      assert.deepEqual(objects.flatMap(schemaErrors), [], `${values} values`);
    }
    assert.deepEqual(
      full
        .map((o) => o.kind)
        .filter((k, i, all) => all.indexOf(k) === i)
        .sort(),
      ['Deployment', 'HorizontalPodAutoscaler', 'Ingress', 'PodDisruptionBudget', 'Service'],
    );
  });

  it('the schema check rejects a broken manifest', async () => {
    rendered();
    // A bad value in: helm renders it, the schema check refuses it.
    const badValue = await render('--set', 'gateway.autoscaling.minReplicas=two');
    const errors = badValue.flatMap(schemaErrors);
    assert.equal(errors.length, 1, errors.join('\n'));
    assert.match(errors[0]!, /^HorizontalPodAutoscaler\/.*minReplicas must be integer/);

    // A rendered object spoiled: a Deployment without its selector, a probe without its port.
    const gateway = structuredClone(gatewayDeployment(byDefault));
    delete (gateway.spec as Partial<DeploymentSpec>).selector;
    assert.match(schemaErrors(gateway).join(), /spec must have required property selector/);
    const probe = structuredClone(gatewayDeployment(byDefault));
    delete (container(probe).readinessProbe!.httpGet as { port?: unknown }).port;
    assert.match(schemaErrors(probe).join(), /readinessProbe\/httpGet must have required property port/);
    assert.match(schemaErrors({ ...probe, kind: 'StatefulSet' }).join(), /no schema for apps\/v1 StatefulSet/);
  });

  it('runs every Deployment from the one image', () => {
    for (const { values, objects } of both()) {
      const images = new Set(deployments(objects).map((d) => container(d).image));
      assert.equal(images.size, 1, `${values}: ${[...images].join(', ')}`);
    }
    assert.equal(container(gatewayDeployment(byDefault)).image, `${defaultValues.image.repository}:0.1.0`);
    assert.equal(container(gatewayDeployment(full)).image, `${fullValues.image.repository}:${fullValues.image.tag}`);
  });

  it('checks every node with liveness on /health and readiness on /ready, on the port it answers them on', () => {
    for (const { objects } of both()) {
      for (const d of deployments(objects)) {
        const gateway = d === gatewayDeployment(objects);
        // Gateways answer on PORT; service nodes on HEALTH_PORT.
        const [portName, variable] = gateway ? ['http', 'PORT'] : ['health', 'HEALTH_PORT'];
        const port = container(d).ports?.find((p) => p.name === portName);
        assert.ok(port, `${d.metadata.name} names its ${portName} port`);
        assert.equal(String(port.containerPort), envOf(d, variable)?.value, `${d.metadata.name}: ${variable}`);
        assert.deepEqual(container(d).livenessProbe?.httpGet, { path: '/health', port: portName });
        assert.deepEqual(container(d).readinessProbe?.httpGet, { path: '/ready', port: portName });
        assert.equal(envOf(d, 'HEALTH_PORT') === undefined, gateway);
      }
    }
  });

  it('scales the gateway Deployment with an autoscaling/v2 HorizontalPodAutoscaler', async () => {
    for (const { values, objects } of both()) {
      const [hpa] = ofKind<KubernetesObject & { spec: { scaleTargetRef: object } }>(objects, 'HorizontalPodAutoscaler');
      assert.ok(hpa, `${values}: an HPA`);
      assert.equal(hpa.apiVersion, 'autoscaling/v2');
      const gateway = gatewayDeployment(objects);
      assert.deepEqual(hpa.spec.scaleTargetRef, {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        name: gateway.metadata.name,
      });
      // The HPA owns the replica count: a fixed one would be reset on every upgrade.
      assert.equal(gateway.spec.replicas, undefined);
    }
    const fixed = await render('--set', 'gateway.autoscaling.enabled=false', '--set', 'gateway.replicas=4');
    assert.equal(ofKind(fixed, 'HorizontalPodAutoscaler').length, 0);
    assert.equal(gatewayDeployment(fixed).spec.replicas, 4);
  });

  it('covers every Deployment with exactly one PodDisruptionBudget', () => {
    for (const { values, objects } of both()) {
      const budgets = ofKind<KubernetesObject & { spec: { selector: { matchLabels: Record<string, string> } } }>(
        objects,
        'PodDisruptionBudget',
      );
      for (const d of deployments(objects)) {
        const covering = budgets.filter((b) => matches(b.spec.selector.matchLabels, d.spec.template.metadata.labels));
        assert.equal(covering.length, 1, `${values}: ${d.metadata.name} has one PodDisruptionBudget`);
        assert.ok(matches(d.spec.selector.matchLabels, d.spec.template.metadata.labels), 'selector matches its pods');
      }
    }
  });

  it('takes secrets only from the existing Secret, and renders no Secret', () => {
    for (const { values, objects, secret } of both()) {
      assert.equal(ofKind(objects, 'Secret').length, 0, `${values}: no Secret of its own`);
      for (const d of deployments(objects)) {
        const refs = (container(d).env ?? []).flatMap((e) =>
          e.valueFrom?.secretKeyRef ? [e.valueFrom.secretKeyRef] : [],
        );
        assert.ok(refs.length > 0);
        assert.deepEqual([...new Set(refs.map((r) => r.name))], [secret], `${values}: ${d.metadata.name}`);
        assert.equal(envOf(d, 'SECRET')?.valueFrom?.secretKeyRef?.name, secret, 'SECRET comes from the Secret');
        assert.equal(envOf(d, 'SECRET')?.value, undefined);
        // The S3 keys reach MINIO_URL through the variables read from the Secret, never as text.
        assert.equal(new URL(envOf(d, 'MINIO_URL')!.value!).username, '$(S3_ACCESS_KEY)');
      }
    }
    assert.deepEqual(envOf(gatewayDeployment(full), 'MONGO_URL')?.valueFrom?.secretKeyRef, {
      name: fullValues.existingSecret.name,
      key: 'MONGO_URL',
    });
    assert.equal(envOf(gatewayDeployment(byDefault), 'MONGO_URL')?.value, 'mongodb://mongodb:27017/im?replicaSet=rs0');
  });

  it('asks for no sticky sessions from the Service or the Ingress', () => {
    for (const { objects } of both()) {
      for (const service of ofKind<KubernetesObject & { spec: { sessionAffinity?: string } }>(objects, 'Service'))
        assert.notEqual(service.spec.sessionAffinity, 'ClientIP');
      for (const o of objects)
        assert.deepEqual(
          Object.keys(o.metadata.annotations ?? {}).filter((a) =>
            /affinity|sticky|session-cookie|upstream-hash/i.test(a),
          ),
          [],
        );
    }
    assert.equal(ofKind(byDefault, 'Ingress').length, 0, 'the ingress is off by default');
    const [ingress] = ofKind<KubernetesObject & { spec: unknown }>(full, 'Ingress');
    assert.equal(
      (ingress?.spec as { rules: Array<{ http: { paths: Array<{ backend: { service: { name: string } } }> } }> })
        .rules[0]!.http.paths[0]!.backend.service.name,
      ofKind(full, 'Service')[0]!.metadata.name,
    );
  });

  it('gives every pod longer to stop than its pause before SIGTERM and its drain', () => {
    for (const { objects } of both()) {
      for (const d of deployments(objects)) {
        const drainSeconds = Number(envOf(d, 'SHUTDOWN_TIMEOUT_MS')?.value) / 1000;
        const pause = Number(container(d).lifecycle?.preStop?.exec?.command[1] ?? 0);
        assert.ok(drainSeconds >= 10);
        assert.ok(
          d.spec.template.spec.terminationGracePeriodSeconds! > pause + drainSeconds,
          `${d.metadata.name}: grace ${d.spec.template.spec.terminationGracePeriodSeconds} s > ${pause} + ${drainSeconds} s`,
        );
      }
      assert.deepEqual(container(gatewayDeployment(objects)).lifecycle?.preStop?.exec?.command, ['sleep', '5']);
    }
  });

  it('runs as a non-root user on a read-only root filesystem', () => {
    for (const { objects } of both()) {
      for (const d of deployments(objects)) {
        assert.equal(d.spec.template.spec.securityContext?.runAsNonRoot, true);
        assert.equal(d.spec.template.spec.securityContext?.runAsUser, 1000);
        assert.equal(container(d).securityContext?.readOnlyRootFilesystem, true);
        assert.equal(container(d).securityContext?.allowPrivilegeEscalation, false);
      }
    }
  });

  it('splits every service over the service nodes, calls only with a LiveKit address', () => {
    rendered();
    const servicesOf = (objects: KubernetesObject[]) =>
      deployments(objects)
        .filter((d) => d !== gatewayDeployment(objects))
        .flatMap((d) => envOf(d, 'SERVICES')!.value!.split(','));
    const all = SERVICE_NAMES.filter((s) => s !== 'gateway');
    assert.deepEqual(servicesOf(byDefault).sort(), all.filter((s) => s !== 'call').sort());
    assert.deepEqual(servicesOf(full).sort(), [...all].sort());
    for (const d of deployments(byDefault)) {
      assert.equal(envOf(d, 'VOICE')?.value, 'off');
      assert.equal(envOf(d, 'LIVEKIT_URL'), undefined);
    }
    for (const d of deployments(full)) {
      assert.equal(envOf(d, 'VOICE')?.value, 'on');
      assert.equal(envOf(d, 'LIVEKIT_API_SECRET')?.valueFrom?.secretKeyRef?.name, fullValues.existingSecret.name);
    }
    assert.equal(envOf(gatewayDeployment(byDefault), 'SERVICES')?.value, 'gateway');
  });

  it('passes a NATS cluster and Redis Sentinel through to every node', () => {
    for (const d of deployments(full)) {
      assert.equal(envOf(d, 'TRANSPORTER')?.value?.split(',').length, 3);
      assert.equal(envOf(d, 'REDIS_SENTINELS')?.value?.split(',').length, 3);
      assert.equal(envOf(d, 'REDIS_SENTINEL_NAME')?.value, 'chat');
    }
    for (const d of deployments(byDefault)) assert.equal(envOf(d, 'REDIS_SENTINELS'), undefined);
  });

  it('refuses to render without an address it needs', async () => {
    await assert.rejects(render('--set', 'nats.url='), /nats\.url \(or existingSecret\.keys\.natsUrl\) is required/);
    await assert.rejects(render('--set', 'existingSecret.name='), /existingSecret\.name/);
    await assert.rejects(render('--set', 'livekit.url=ws://livekit:7880'), /livekit\.apiKey is required/);
  });
});
