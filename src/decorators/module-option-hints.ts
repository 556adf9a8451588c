/*
 * Types only: the keys people bring to `@Module()` from NestJS, typed so that the compile error
 * names what to write instead. Left unknown, `imports: [UsersModule]` failed with TypeScript's
 * "Object literal may only specify known properties" and no hint, while the boot error
 * (module-options.ts's didYouMean) named the fix; now the type error carries the same advice, as
 * the key of the one type such a value is checked against (for `global`, the one string it takes).
 * What compiled before still does; `imports: undefined` (and that string as `global`) now compile,
 * and are refused at boot as before.
 */

/** What `imports` is checked against: Enclave lists child modules in `plugins`. */
export interface ImportsIsPlugins {
  "Enclave has no 'imports': list child modules in 'plugins' (a child sees its parent's providers); for this module to inject another module's providers, list lift(ThatModule) in its 'plugins'": never
}
/** What `exports` is checked against. */
export interface ExportsIsLift {
  "Enclave has no 'exports': a module's providers are visible to it and its descendants; to share them with the parent, the parent lists lift(ThisModule) in its 'plugins'": never
}
/** What `global` is checked against (a string: a boolean checked against an interface is reported without its keys). */
export type NoGlobalModules = "Enclave has no 'global' modules: a provider of the root module is visible to every module (or the root lists lift(ThisModule) in its 'plugins')"

/** Checked beside ModuleOptions by `@Module()`: a NestJS key is a compile error whose message says what to write. */
export interface NestModuleKeys {
  imports?: ImportsIsPlugins
  exports?: ExportsIsLift
  global?: NoGlobalModules
}
