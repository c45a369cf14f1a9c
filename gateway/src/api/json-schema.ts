/** fastest-validator rules as JSON Schema (what the OpenAPI document declares of each parameter). */
export type JsonSchema = Record<string, unknown>;

/** Converts one fastest-validator rule to JSON Schema (the subset our params use). */
export function ruleToJsonSchema(rule: unknown): JsonSchema {
  const r = (typeof rule === 'string' ? { type: rule } : rule) as Record<string, unknown>;
  const out: JsonSchema = {};
  switch (r.type) {
    case 'string':
      out.type = 'string';
      if (typeof r.min === 'number') out.minLength = r.min;
      if (typeof r.max === 'number') out.maxLength = r.max;
      if (r.pattern instanceof RegExp) out.pattern = r.pattern.source;
      // What the value is (uri, date-time), where the action checks it as that.
      if (typeof r.format === 'string') out.format = r.format;
      // For patterns a generator cannot invert (lookaheads, Unicode properties).
      if (Array.isArray(r.examples)) out.examples = r.examples;
      break;
    case 'number':
      out.type = r.integer ? 'integer' : 'number';
      if (typeof r.min === 'number') out.minimum = r.min;
      if (typeof r.max === 'number') out.maximum = r.max;
      break;
    case 'boolean':
      out.type = 'boolean';
      break;
    case 'enum':
      out.type = 'string';
      out.enum = r.values;
      break;
    case 'object':
      Object.assign(out, objectSchema((r.props ?? {}) as Record<string, unknown>, [], r.strict === true));
      break;
    case 'any':
      break;
    case 'array':
      out.type = 'array';
      out.items = ruleToJsonSchema(r.items);
      if (typeof r.min === 'number') out.minItems = r.min;
      if (typeof r.max === 'number') out.maxItems = r.max;
      if (r.unique === true) out.uniqueItems = true;
      break;
    default:
      throw new Error(`no JSON Schema mapping for rule type ${String(r.type)}`);
  }
  return out;
}

const isOptional = (rule: unknown) =>
  typeof rule === 'object' && rule !== null && (rule as { optional?: boolean }).optional === true;

export function objectSchema(params: Record<string, unknown>, exclude: string[], strictObject?: boolean): JsonSchema {
  const fields = Object.entries(params).filter(([k]) => !k.startsWith('$$') && !exclude.includes(k));
  const required = fields.filter(([, rule]) => !isOptional(rule)).map(([k]) => k);
  return {
    type: 'object',
    additionalProperties: !(params.$$strict === true || strictObject === true),
    properties: Object.fromEntries(fields.map(([k, rule]) => [k, ruleToJsonSchema(rule)])),
    ...(required.length > 0 ? { required } : {}),
  };
}
