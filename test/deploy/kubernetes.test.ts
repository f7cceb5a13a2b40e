/**
 * deploy/kubernetes: every manifest validates against the Kubernetes API
 * schemas (kubernetes-models, offline), and the pieces fit together: probes
 * on the service's own routes, Service and HPA pointing at the Deployment,
 * keys from the Secret, a configuration docshape itself accepts.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { parseAllDocuments } from 'yaml';
import { ScaledObject } from '@kubernetes-models/keda/keda.sh/v1alpha1/ScaledObject';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { StatefulSet } from 'kubernetes-models/apps/v1/StatefulSet';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { PersistentVolumeClaim } from 'kubernetes-models/v1/PersistentVolumeClaim';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import { loadConfig } from '../../src/config.js';
import { WAITING_LIST } from '../../src/jobs/create-jobs.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const DIR = join(ROOT, 'deploy', 'kubernetes');

type Manifest = Record<string, any>;
interface Validatable {
  validate(): void;
}

/** The kinds these manifests use, by apiVersion and kind. */
const MODELS: Record<string, new (data: any) => Validatable> = {
  'apps/v1 Deployment': Deployment,
  'apps/v1 StatefulSet': StatefulSet,
  'keda.sh/v1alpha1 ScaledObject': ScaledObject,
  'autoscaling/v2 HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'batch/v1 Job': Job,
  'networking.k8s.io/v1 NetworkPolicy': NetworkPolicy,
  'policy/v1 PodDisruptionBudget': PodDisruptionBudget,
  'v1 ConfigMap': ConfigMap,
  'v1 PersistentVolumeClaim': PersistentVolumeClaim,
  'v1 Secret': Secret,
  'v1 Service': Service,
};

function readYaml(file: string): Manifest[] {
  const documents = parseAllDocuments(readFileSync(join(DIR, file), 'utf8'));
  return (Array.isArray(documents) ? documents : [documents]).map((document) => {
    expect(document.errors.map((e) => e.message), file).to.deep.equal([]);
    return document.toJS() as Manifest;
  });
}

function validateManifest(manifest: Manifest): void {
  const Model = MODELS[`${manifest.apiVersion} ${manifest.kind}`];
  if (!Model) throw new Error(`no schema for ${manifest.apiVersion} ${manifest.kind}`);
  new Model(manifest).validate();
}

/** "2" -> 2, "500m" -> 0.5 */
function cpus(quantity: string): number {
  return quantity.endsWith('m') ? Number(quantity.slice(0, -1)) / 1000 : Number(quantity);
}

describe('Kubernetes manifests (deploy/kubernetes)', () => {
  const files = readdirSync(DIR).filter((file) => file.endsWith('.yaml'));
  const kustomization = readYaml('kustomization.yaml')[0]!;
  const applied: Manifest[] = (kustomization.resources as string[]).flatMap(readYaml);
  const find = (kind: string, name: string) => {
    const found = applied.find((m) => m.kind === kind && m.metadata?.name === name);
    if (!found) throw new Error(`no ${kind} ${name}`);
    return found;
  };
  const deployment = find('Deployment', 'docshape');
  const pod = deployment.spec.template.spec;
  const container = pod.containers[0];
  const configMap = find('ConfigMap', 'docshape-config');

  it('every manifest validates against the Kubernetes API schemas', () => {
    for (const file of files.filter((f) => f !== 'kustomization.yaml')) {
      for (const manifest of readYaml(file)) {
        expect(() => validateManifest(manifest), `${file}: ${manifest.kind} ${manifest.metadata?.name}`).to.not.throw();
      }
    }
  });

  it('the schema check catches a wrong manifest', () => {
    const broken = structuredClone(deployment);
    broken.spec.replicas = 'two';
    expect(() => validateManifest(broken)).to.throw(/replicas/);
    const badQuantity = structuredClone(deployment);
    badQuantity.spec.template.spec.containers[0].resources.limits.memory = 'lots';
    expect(() => validateManifest(badQuantity)).to.throw(/memory/);
  });

  it('kustomization lists every manifest but the example Secret', () => {
    expect([...kustomization.resources].sort()).to.deep.equal(files.filter((f) => f !== 'kustomization.yaml' && !f.endsWith('.example.yaml')).sort());
  });

  it('docshape: readiness on /readyz, liveness on /healthz, on the container port, with resources', () => {
    expect(container.readinessProbe.httpGet).to.deep.equal({ path: '/readyz', port: 'http' });
    expect(container.livenessProbe.httpGet).to.deep.equal({ path: '/healthz', port: 'http' });
    expect(container.ports).to.deep.equal([{ name: 'http', containerPort: 8080 }]);
    expect(container.resources.requests).to.have.keys('cpu', 'memory');
    expect(container.resources.limits).to.have.property('memory');
    // Drains finish requests in flight: the grace period outlasts SHUTDOWN_TIMEOUT_MS.
    expect(pod.terminationGracePeriodSeconds * 1000).to.be.greaterThan(Number(configMap.data.SHUTDOWN_TIMEOUT_MS));
  });

  it('the Service, HPA, PDB and network policy select the docshape pods', () => {
    const labels = deployment.spec.template.metadata.labels;
    expect(deployment.spec.selector.matchLabels).to.deep.equal(labels);
    const service = find('Service', 'docshape');
    expect(service.spec.selector).to.deep.equal(labels);
    expect(service.spec.ports[0].targetPort).to.equal(container.ports[0].name);
    const hpa = find('HorizontalPodAutoscaler', 'docshape');
    expect(hpa.spec.scaleTargetRef).to.deep.equal({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'docshape' });
    expect(hpa.spec.minReplicas).to.be.at.least(2);
    expect(find('PodDisruptionBudget', 'docshape').spec.selector.matchLabels).to.deep.equal(labels);
    expect(find('NetworkPolicy', 'docshape-egress').spec.podSelector.matchLabels).to.deep.equal(labels);
  });

  it('keys come from the Secret the example describes, as the file API_KEYS_FILE names', () => {
    const secret = readYaml('secret.example.yaml')[0]!;
    const keyVolume = pod.volumes.find((v: Manifest) => v.secret);
    expect(keyVolume.secret.secretName).to.equal(secret.metadata.name);
    const mount = container.volumeMounts.find((m: Manifest) => m.name === keyVolume.name);
    const keyFile = container.env.find((e: Manifest) => e.name === 'API_KEYS_FILE').value;
    expect(keyFile).to.equal(`${mount.mountPath}/${Object.keys(secret.stringData)[0]}`);
    expect(JSON.stringify(configMap.data)).to.not.match(/API_KEYS"/);
  });

  it('docshape accepts the configuration, with workers sized to the CPU request and Ollama at its Service', () => {
    const keys = join(mkdtempSync(join(tmpdir(), 'docshape-k8s-')), 'api-keys');
    writeFileSync(keys, readYaml('secret.example.yaml')[0]!.stringData['api-keys']);
    const env = { ...configMap.data, API_KEYS_FILE: keys };
    const config = loadConfig(env);
    expect(config.apiKeys).to.deep.equal(['change-me']);
    const cores = cpus(container.resources.requests.cpu);
    // PP-OCR (the default engine): its workers' ONNX Runtime threads fill the requested cores
    expect(config.ocr.engine).to.equal('auto');
    expect((config.ocr.workers ?? 0) * (config.ocr.threads ?? 0)).to.equal(cores);
    expect(config.pdf.workers).to.equal(cores);
    expect(config.concurrency.maxActiveRequests).to.equal(cores);
    const ollama = find('Service', 'ollama');
    expect(config.ollama.host).to.equal(`http://${ollama.metadata.name}:${ollama.spec.ports[0].port}`);
    expect(find('Deployment', 'ollama').spec.template.metadata.labels).to.deep.equal(ollama.spec.selector);
    expect(find('Job', 'ollama-pull').spec.template.spec.containers[0].env.find((e: Manifest) => e.name === 'MODEL').value).to.equal(config.ollama.model);
  });

  it('every variable set for docshape is one the documentation (README.md, docs/) names', () => {
    const docsDir = join(ROOT, 'docs');
    const documentation = ['README.md', ...readdirSync(docsDir).filter((name) => name.endsWith('.md')).map((name) => join('docs', name))]
      .map((page) => readFileSync(join(ROOT, page), 'utf8'))
      .join('\n');
    const workerEnv = find('Deployment', 'docshape-worker').spec.template.spec.containers[0].env;
    const names = [...Object.keys(configMap.data), ...container.env.map((e: Manifest) => e.name), ...workerEnv.map((e: Manifest) => e.name)];
    for (const name of names) expect(documentation, name).to.contain(`\`${name}\``);
  });

  describe('jobs: Redis, the workers and their autoscaler', () => {
    const worker = find('Deployment', 'docshape-worker');
    const workerPod = worker.spec.template.spec;
    const workerContainer = workerPod.containers[0];
    const envOf = (c: Manifest) => Object.fromEntries(c.env.filter((e: Manifest) => 'value' in e).map((e: Manifest) => [e.name, e.value]));
    const redis = find('StatefulSet', 'redis');

    it('the API Deployment serves the API and the worker Deployment runs jobs, from the same image, configuration and keys', () => {
      expect(envOf(container).ROLE).to.equal('api');
      expect(envOf(workerContainer).ROLE).to.equal('worker');
      expect(workerContainer.image).to.equal(container.image);
      expect(workerContainer.envFrom).to.deep.equal(container.envFrom);
      expect(workerContainer.readinessProbe.httpGet).to.deep.equal({ path: '/readyz', port: 'http' });
      expect(workerContainer.livenessProbe.httpGet).to.deep.equal({ path: '/healthz', port: 'http' });
      expect(worker.spec.selector.matchLabels).to.deep.equal(worker.spec.template.metadata.labels);
      expect(worker.spec.template.metadata.labels).to.not.deep.equal(deployment.spec.template.metadata.labels); // the Service never sends requests to a worker
      expect(workerPod.terminationGracePeriodSeconds * 1000).to.be.greaterThan(Number(configMap.data.SHUTDOWN_TIMEOUT_MS));
      const keys = join(mkdtempSync(join(tmpdir(), 'docshape-k8s-')), 'api-keys');
      writeFileSync(keys, 'change-me');
      for (const role of ['api', 'worker']) {
        const config = loadConfig({ ...configMap.data, API_KEYS_FILE: keys, ROLE: role, WEBHOOK_SECRET: readYaml('secret.example.yaml')[1]!.stringData.secret });
        expect(config.role).to.equal(role);
        expect(config.webhooks.secret?.length).to.be.at.least(24);
      }
    });

    it('Redis keeps an append-only file with noeviction on a volume, at the address REDIS_URL names', () => {
      const args: string[] = redis.spec.template.spec.containers[0].args;
      const flag = (name: string) => args[args.indexOf(name) + 1];
      expect(flag('--appendonly')).to.equal('yes');
      expect(flag('--maxmemory-policy')).to.equal('noeviction');
      expect(redis.spec.template.spec.containers[0].volumeMounts[0].mountPath).to.equal(flag('--dir'));
      expect(redis.spec.volumeClaimTemplates[0].metadata.name).to.equal(redis.spec.template.spec.containers[0].volumeMounts[0].name);
      const service = find('Service', 'redis');
      expect(service.spec.selector).to.deep.equal(redis.spec.template.metadata.labels);
      expect(redis.spec.serviceName).to.equal(service.metadata.name);
      const url = new URL(configMap.data.REDIS_URL);
      expect([url.hostname, Number(url.port)]).to.deep.equal([service.metadata.name, service.spec.ports[0].port]);
    });

    it('KEDA scales the worker Deployment on the list where jobs wait, at the Redis Service', () => {
      const scaled = find('ScaledObject', 'docshape-worker');
      expect(scaled.spec.scaleTargetRef).to.deep.include({ kind: 'Deployment', name: 'docshape-worker' });
      const [trigger] = scaled.spec.triggers;
      expect(trigger.type).to.equal('redis');
      expect(trigger.metadata.listName).to.equal(WAITING_LIST);
      expect(trigger.metadata.address).to.equal(`redis.${kustomization.namespace}.svc.cluster.local:${find('Service', 'redis').spec.ports[0].port}`);
      expect(scaled.spec.minReplicaCount).to.be.at.least(1);
    });

    it('only docshape pods reach Redis, and both kinds of docshape pod may reach it', () => {
      const ingress = find('NetworkPolicy', 'redis-ingress');
      expect(ingress.spec.podSelector.matchLabels).to.deep.equal(redis.spec.template.metadata.labels);
      const allowed = ingress.spec.ingress[0].from.map((from: Manifest) => from.podSelector?.matchLabels).filter(Boolean);
      expect(allowed).to.deep.include(deployment.spec.template.metadata.labels);
      expect(allowed).to.deep.include(worker.spec.template.metadata.labels);
      for (const [policy, labels] of [['docshape-egress', deployment.spec.template.metadata.labels], ['docshape-worker-egress', worker.spec.template.metadata.labels]]) {
        const found = find('NetworkPolicy', policy);
        expect(found.spec.podSelector.matchLabels).to.deep.equal(labels);
        expect(found.spec.egress.map((rule: Manifest) => rule.to[0].podSelector?.matchLabels)).to.deep.include(redis.spec.template.metadata.labels);
      }
    });
  });
});
