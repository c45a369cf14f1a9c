// Checks rendered manifests against the Kubernetes API schemas without a
// cluster or the network: kubernetes-models ships a validator generated from
// the API's OpenAPI document for every kind. Like kubeconform without
// -strict, it checks types, enums and required fields; it does not reject
// fields the API does not know.
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { Service } from 'kubernetes-models/v1';

export interface KubernetesObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: unknown;
}

type Validating = new (data: never) => { validate(): void };

// The kinds the chart renders; a new kind in the chart must be added here to be checked.
const MODELS: Record<string, Validating> = {
  'apps/v1/Deployment': Deployment as unknown as Validating,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler as unknown as Validating,
  'networking.k8s.io/v1/Ingress': Ingress as unknown as Validating,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget as unknown as Validating,
  'v1/Service': Service as unknown as Validating,
};

/** The schema errors of one object ("Kind/name: message"); empty when it is valid. */
export function schemaErrors(object: KubernetesObject): string[] {
  const at = `${object.kind}/${object.metadata?.name}`;
  const Model = MODELS[`${object.apiVersion}/${object.kind}`];
  if (!Model) return [`${at}: no schema for ${object.apiVersion} ${object.kind}`];
  try {
    new Model(object as never).validate();
    return [];
  } catch (err) {
    return [`${at}: ${(err as Error).message}`];
  }
}
