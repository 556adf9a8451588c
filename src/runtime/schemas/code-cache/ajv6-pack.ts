/**
 * An ajv 6 validator as data, and back, for the schema cache. ajv 6 builds each validator as
 * `new Function('self', 'RULES', 'formats', 'root', 'refVal', 'defaults', 'customRules', 'equal',
 * 'ucs2length', 'ValidationError', code)` (ajv/lib/compile/index.js) and, with `sourceCode: true`,
 * keeps that code (`validate.source`). Packing keeps the code of the validator and of every
 * validator it calls (`refVal`, a $ref that is not inlined), with the data they read. Unpacking
 * runs the same factory with the same arguments, `self`, `RULES` and `formats` taken from a live
 * ajv instance built with the same options, plugins and shared schemas (the cache key holds those).
 *
 * Not ajv-pack: it writes one CommonJS module per schema that `require`s ajv's internals, can
 * not pack the `refVal` of a schema compiled against shared schemas (addSchema), and refuses the
 * inline keywords of ajv-errors; a cache of one file per app evaluates code without modules.
 *
 * Only what can be reproduced exactly is packed: a validator is refused (compiled as usual) when
 * its code reads `root` or `validate.root` (a recursive `$ref: '#'` from a nested function), calls
 * a custom keyword's function (`customRuleN` used beyond its declaration), is `$async`, takes
 * part in a reference cycle, or reads a schema or default that is not plain JSON.
 */
import type Ajv from 'ajv'
import { isPlainJson } from './json-value'

/* eslint-disable @typescript-eslint/no-var-requires */
// The helpers ajv passes to every validator factory: the same modules ajv itself loads.
const equal: unknown = require('ajv/lib/compile/equal')
const ucs2length: unknown = (require('ajv/lib/compile/util') as { ucs2length: unknown }).ucs2length
const ValidationError: unknown = (require('ajv/lib/compile/error_classes') as { Validation: unknown }).Validation

/** One function of a packed validator. */
export interface PackedNode {
  /** The factory body, as ajv generated it (after `processCode`). */
  readonly code: string
  /** The function's schema (`validate.schema`, read by error objects and `enum`); absent on the last node, which gets the route's schema. */
  readonly schema?: unknown
  /** `refVal[1..]`: an earlier node's index, a `{ value }` (an inlined schema), or null (a slot ajv left empty). */
  readonly refVal: ReadonlyArray<number | { readonly value: unknown } | null>
  readonly refs: Readonly<Record<string, number>>
  readonly defaults: readonly unknown[]
  /** Whether ajv compiled it as a root (`validate.root === validate`). */
  readonly isRoot: boolean
}

/** Dependencies first; the last node is the validator of the route's schema. */
export interface PackedValidator {
  readonly nodes: readonly PackedNode[]
}

interface CompiledValidator {
  (data: unknown): unknown
  source?: { code: string; defaults: unknown[] }
  refVal?: unknown[]
  refs?: Record<string, number>
  root?: unknown
  schema?: unknown
  $async?: boolean
  errors?: unknown
}

/** Reads `root.` as a variable (not `data.root.`, not `validate.root`). */
const READS_ROOT = /(^|[^.\w$])root\./
const READS_VALIDATE_ROOT = /\bvalidate\.root\b/
const CUSTOM_RULE = /\bcustomRule\d+\b/g

/**
 * The packed form of a validator ajv compiled with `sourceCode: true`, or null when it cannot be
 * reproduced exactly (see the file comment): the caller then keeps it out of the cache.
 */
export function packValidator(validate: Function): PackedValidator | null {
  const nodes: PackedNode[] = []
  const indexOf = new Map<Function, number>()
  const visiting = new Set<Function>()

  const visit = (fn: CompiledValidator, top: boolean): number | null => {
    const known = indexOf.get(fn)
    if (known !== undefined) return known
    if (visiting.has(fn)) return null
    const source = fn.source
    if (source === undefined || typeof source.code !== 'string' || fn.$async === true) return null
    const code = source.code
    if (READS_ROOT.test(code) || READS_VALIDATE_ROOT.test(code)) return null
    // A custom keyword's rule is declared once (`var customRule0 = customRules[0];`); an inline
    // keyword's code is in the text, a compiled or validating one is called: that cannot be stored.
    const rules = code.match(CUSTOM_RULE)
    if (rules !== null && new Set(rules).size !== rules.length) return null
    if (!isPlainJson(source.defaults) || (!top && !isPlainJson(fn.schema))) return null
    visiting.add(fn)
    const refVal: Array<number | { value: unknown } | null> = []
    const given = fn.refVal ?? [undefined]
    for (let i = 1; i < given.length; i++) {
      const item = given[i]
      if (item === undefined) refVal.push(null)
      else if (typeof item === 'function') {
        const index = visit(item as CompiledValidator, false)
        if (index === null) return null
        refVal.push(index)
      } else if (isPlainJson(item)) refVal.push({ value: item })
      else return null
    }
    visiting.delete(fn)
    const refs = fn.refs ?? {}
    const node: PackedNode = top
      ? { code, refVal, refs, defaults: source.defaults, isRoot: fn.root === fn }
      : { code, schema: fn.schema, refVal, refs, defaults: source.defaults, isRoot: fn.root === fn }
    nodes.push(node)
    indexOf.set(fn, nodes.length - 1)
    return nodes.length - 1
  }

  return visit(validate as CompiledValidator, true) === null ? null : { nodes }
}

/**
 * Rebuilds a packed validator against `ajv` (an instance with the options, plugins and shared
 * schemas the cache key names), for `schema` (the route's schema it was compiled from). Throws
 * when the stored code does not evaluate: the caller then compiles instead.
 */
export function unpackValidator(packed: PackedValidator, schema: unknown, ajv: Ajv.Ajv): Function {
  const instance = ajv as unknown as { RULES: unknown; _formats: unknown }
  const built: Function[] = []
  const last = packed.nodes.length - 1
  packed.nodes.forEach((node, index) => {
    const refVal: unknown[] = [undefined]
    for (const item of node.refVal) {
      if (item === null) refVal.push(undefined)
      else if (typeof item === 'number') {
        if (!(item >= 0 && item < built.length)) throw new Error('schema cache: a validator refers to one not built before it')
        refVal.push(built[item])
      } else refVal.push(item.value)
    }
    const nodeSchema = index === last ? schema : node.schema
    const root = { schema: nodeSchema, refVal, refs: node.refs }
    // eslint-disable-next-line no-new-func
    const make = new Function('self', 'RULES', 'formats', 'root', 'refVal', 'defaults', 'customRules', 'equal', 'ucs2length', 'ValidationError', node.code)
    const validate = make(ajv, instance.RULES, instance._formats, root, refVal, node.defaults, [], equal, ucs2length, ValidationError) as CompiledValidator
    if (typeof validate !== 'function') throw new Error('schema cache: stored validator code does not return a function')
    refVal[0] = validate
    validate.schema = nodeSchema
    validate.errors = null
    validate.refs = { ...node.refs }
    validate.refVal = refVal
    validate.root = node.isRoot ? validate : root
    built.push(validate)
  })
  return built[last]
}
