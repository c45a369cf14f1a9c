import type { Operation } from './operation.ts';

type Params = Record<string, unknown>;

/** `:name` segments of a path template. */
const PATH_PARAM = /:([A-Za-z]+)/g;

/** The path with its `:name` segments filled (URL-encoded) from `params`, and the parameters left over. */
export function fillPath(template: string, params: Params): { path: string; rest: Params } {
  const rest = { ...params };
  const path = template.replace(PATH_PARAM, (_, name: string) => {
    const value = rest[name];
    if (value === undefined || value === null) throw new TypeError(`${template}: no value for :${name}`);
    delete rest[name];
    return encodeURIComponent(String(value));
  });
  return { path, rest };
}

/** `?a=1&b=x` of the defined parameters, in their order; '' when there are none. */
export function queryString(params: Params): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    query.append(name, Array.isArray(value) ? value.join(',') : String(value));
  }
  const text = query.toString();
  return text ? `?${text}` : '';
}

/** The URL path of a call: path parameters filled, and for a query endpoint the rest as its query. */
export function operationPath(operation: Operation, params: Params = {}): string {
  const { path, rest } = fillPath(operation.path, params);
  return operation.input === 'query' ? path + queryString(rest) : path;
}
