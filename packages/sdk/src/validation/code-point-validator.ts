import { Validators } from 'moleculer';

type Rule = Record<string, unknown>;
type CheckError = { type: string; expected: number; actual: number; field?: string };

const SURROGATE = /[\uD800-\uDFFF]/;

/** Characters as JSON Schema counts them: code points, so an emoji is one, not two UTF-16 units. */
export function codePointLength(value: string): number {
  if (!SURROGATE.test(value)) return value.length;
  let n = 0;
  for (const _ of value) n += 1;
  return n;
}

/**
 * A string rule whose min/max count code points: the same bound a client
 * reads in the API document (JSON Schema's minLength/maxLength), checked
 * after fastest-validator's own checks and sanitizers (trim) with its own
 * error types, so answers keep their shape.
 */
function countCodePoints(rule: Rule): Rule {
  const { min, max, ...rest } = rule;
  if (typeof min !== 'number' && typeof max !== 'number') return rule;
  return {
    ...rest,
    custom: (value: unknown, errors: CheckError[], _schema: unknown, field: string) => {
      if (typeof value !== 'string') return value;
      const n = codePointLength(value);
      if (typeof min === 'number' && n < min) errors.push({ type: 'stringMin', expected: min, actual: n, field });
      if (typeof max === 'number' && n > max) errors.push({ type: 'stringMax', expected: max, actual: n, field });
      return value;
    },
  };
}

function rewrite(rule: unknown): unknown {
  if (!rule || typeof rule !== 'object' || Array.isArray(rule) || rule instanceof RegExp) return rule;
  const r = rule as Rule;
  if (r.type === 'string') return countCodePoints(r);
  if (r.type === 'object' && r.props) return { ...r, props: rewriteFields(r.props as Rule) };
  if (r.type === 'array' && r.items) return { ...r, items: rewrite(r.items) };
  if (r.type === 'record' && r.value) return { ...r, value: rewrite(r.value) };
  return r;
}

const rewriteFields = (schema: Rule): Rule =>
  Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, k.startsWith('$$') ? v : rewrite(v)]));

type FieldError = { type: string; field: string; message: string };

/**
 * fastest-validator lets `null` through wherever a field is optional, as if
 * it were absent; JSON Schema (the API document) does not. A null where the
 * rule does not say `nullable: true` is refused, in nested objects too.
 */
function nullsIn(value: unknown, schema: Rule, path: string, out: FieldError[]): FieldError[] {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return out;
  for (const [key, rule] of Object.entries(schema)) {
    if (key.startsWith('$$') || !rule || typeof rule !== 'object') continue;
    const field = path ? `${path}.${key}` : key;
    const child = (value as Record<string, unknown>)[key];
    const r = rule as Rule;
    if (child === null && r.optional === true && r.nullable !== true && r.type !== 'any')
      out.push({ type: 'notNull', field, message: `The '${field}' field must not be null.` });
    else if (r.type === 'object' && r.props) nullsIn(child, r.props as Rule, field, out);
  }
  return out;
}

/**
 * The broker's parameter validator: fastest-validator, with string lengths
 * in code points and no null for a field that is not nullable.
 */
export class CodePointValidator extends Validators.Fastest {
  override compile(schema: Record<string, unknown>) {
    const check = super.compile(rewriteFields(schema));
    // Like fastest-validator's own checkers, this answers true or the list of errors.
    const checkWithNulls = (params: unknown, context?: unknown) => {
      const nulls = nullsIn(params, schema, '', []);
      return nulls.length > 0 ? nulls : check(params as never, context as never);
    };
    return Object.assign(checkWithNulls, { async: check.async }) as unknown as typeof check;
  }
}
