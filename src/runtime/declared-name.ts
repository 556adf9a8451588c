/*
 * Types only: the name a `decorateRequest` / `decorateReply` / `decorate` call (or the matching
 * class decorator) may give. Request, Reply and Scope have no catch-all index, so a decoration
 * nobody declared could never be read: the name must be declared on the interface first, and an
 * undeclared one (a typo, or a missing `declare module 'enclave'` block) fails at the name with a
 * message that says so. A symbol, or a name only known as `string` at compile time, is not
 * checked (nothing to compare it with). An app that gave the interface the catch-all
 * (`[name: string]: unknown`) has every name declared.
 */

/** The message an undeclared decoration name is compared with (and fails against). */
export type UndeclaredName<K extends string, Where extends string> =
  `'${K}' is not declared: add it to ${Where} in a declare module 'enclave' block first`

/**
 * The same inside a typed plugin (`lift(plugin, { name, provides })`), whose own scope accepts the
 * names its `provides` lists: a misspelt or forgotten one is most likely missing there, not from the
 * global interface, so the message names both fixes.
 */
export type UnprovidedName<K extends string, Part extends 'request' | 'reply' | 'scope', Where extends string> =
  `'${K}' is not declared: add it to this plugin's provides.${Part} (${K}: type<T>()) or to ${Where} in a declare module 'enclave' block`

/** Whether `K` can be checked: a literal name (a symbol, or a name typed `string`, cannot). */
export type Uncheckable<K> = K extends symbol ? true : string extends K ? true : false

/**
 * The message a built-in member's name (`'body'`, `'code'`, `'register'`) is compared with: declaring
 * it would clash with the member's own type, and the run time refuses it, so "declare it" is the wrong advice.
 */
export type BuiltInName<K extends string, Of extends string> =
  `'${K}' is a built-in member of ${Of}: a decoration cannot replace it, pick another name`
