/**
 * The TypeScript type of what a fastest-validator schema accepts, for the
 * subset of rules the platform's params use. A handler declared with
 * `Ctx<Params<typeof schema>>` cannot disagree with its schema.
 */

type Simplify<T> = { [K in keyof T]: T[K] } & {};

type RuleType<R> = R extends { type: 'string' }
  ? string
  : R extends { type: 'number' }
    ? number
    : R extends { type: 'boolean' }
      ? boolean
      : R extends { type: 'enum'; values: ReadonlyArray<infer V> }
        ? V
        : R extends { type: 'array'; items: infer I }
          ? Array<RuleType<I>>
          : R extends { type: 'object'; props: infer P }
            ? Params<P>
            : R extends { type: 'record'; value: infer V }
              ? Record<string, RuleType<V>>
              : R extends { type: 'any' }
                ? unknown
                : never;

type Field<K> = K extends `$$${string}` ? never : K;
type OptionalKeys<S> = { [K in keyof S]: S[K] extends { optional: true } ? Field<K> : never }[keyof S];
type RequiredKeys<S> = { [K in keyof S]: S[K] extends { optional: true } ? never : Field<K> }[keyof S];

/** A rule's type, with `null` when the rule says `nullable: true`. */
type FieldType<R> = RuleType<R> | (R extends { nullable: true } ? null : never);

/** The validated parameters of an action whose `params` is `S`. */
export type Params<S> = Simplify<
  { [K in RequiredKeys<S>]: FieldType<S[K]> } & { [K in OptionalKeys<S>]?: FieldType<S[K]> }
>;
