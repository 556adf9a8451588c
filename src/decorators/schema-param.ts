import type { FromSchema, JSONSchema } from 'json-schema-to-ts'

/*
 * Types only: the parameter of `@Query('page', { type: 'integer', default: 1 })`. The route
 * decorator's parameter check (handler-fit.ts) cannot see parameter decorators, and without a
 * querystring schema in the route options it knows a query property as a string; so, as for
 * createParamDecorator(), the parameter carries a brand saying its decorator declares (and checks)
 * its type: `page: SchemaParam<number>`.
 */

/** Type-only brand of a parameter whose decorator gives its schema (never set at run time). */
export declare const schemaParamMark: unique symbol
/** The brand of SchemaParam<T>, a named interface so that declaration files can name it. */
export interface SchemaParamBrand { readonly [schemaParamMark]?: never }
/** `@Query('page', { type: 'integer' }) page: SchemaParam<number>`: `T` for every use. */
export type SchemaParam<T> = (T & SchemaParamBrand) | Extract<T, null | undefined>
export type IsSchemaParam<P> = typeof schemaParamMark extends keyof NonNullable<P> ? true : false

/** `{ optional: true }`: a query or header property without a default that may be absent. */
export interface ParamSchemaOptions { readonly optional?: boolean }

/**
 * What the property holds after validation: the schema's type (unknown when TypeScript cannot read
 * the schema), `| undefined` when it may be absent (optional, with no default).
 */
export type ParamValue<S, O> = (S extends JSONSchema ? FromSchema<S> : unknown) extends infer T
  ? (O extends { optional: true } ? (S extends { default: unknown } ? T : T | undefined) : T)
  : never

type Unbranded<P> = P extends SchemaParamBrand ? Omit<P, typeof schemaParamMark> : P
type Fits<V, P> = [V] extends [P] ? true : [V] extends [Unbranded<P>] ? true : false

/** Parameter `I` of method `K` is typed `SchemaParam<X>` and takes the schema's value `V`. */
type SchemaParamFits<T, K, I extends number, V> = K extends string | symbol
  ? T extends { [k in K]: (...args: infer P) => unknown }
    ? IsSchemaParam<P[I]> extends true
      ? (unknown extends V ? unknown : Fits<V, P[I]> extends true ? unknown : { [m in `parameter ${I} of ${K & string} cannot take the schema's value (type it SchemaParam<X> with X the schema's type)`]: V })
      : { [m in `parameter ${I} of ${K & string} has a schema in its decorator: type it SchemaParam<X> with X the schema's type`]: V }
    : unknown
  : unknown

/** A parameter decorator with a schema giving values of type `V`, checked against the parameter's declared type. */
export type ParamSchemaDecorator<V> = <T extends object, K extends string | symbol, I extends number>(
  target: T & SchemaParamFits<T, K, I, V>, propertyKey: K, parameterIndex: I) => void
