import { scopesDepthFirst } from '../boot/all-scopes'
import { callLifecycleHook } from '../boot/lifecycle-hook'
import { isSelfBoundedHook } from '../shared/self-bounded-hook'
import type { BootContext } from '../boot/boot-context'
import type { ServeContext } from '../serve/serve-context'

// Each preClose/onClose hook is bounded by pluginTimeout (avvio 7 bounds none, so one async hook
// that never settles hangs Fastify 3's close() forever, silently): past it, ENC_ERR_PLUGIN_TIMEOUT
// is logged and the close goes on.

/**
 * Fastify 4+'s preClose: once close() is called and before the server stops accepting, so a
 * plugin can end what Node's close() would wait for (upgraded websocket connections). Each
 * scope before its children, depth first, as Fastify runs them. close() before boot boots first (a server that never
 * booted is not listening), as Fastify does; one whose boot failed runs none. A failing hook is
 * logged and the close goes on, as in Fastify.
 */
export async function runPreCloseHooks(boot: BootContext, serve: ServeContext, ready: () => Promise<void>): Promise<void> {
  if (!boot.compiled) await ready().catch(() => undefined)
  if (!boot.compiled) return
  for (const scope of scopesDepthFirst(boot.rootScope)) {
    for (const hook of scope.hooks.own('preClose')) {
      await callLifecycleHook(hook.fn, hook.scope, [], hook.callback, serve.limits.pluginTimeout, `preClose hook in ${scope.path}`, !isSelfBoundedHook(hook.fn))
        .catch((error: unknown) => serve.log.error({ err: error }, `preClose hook in ${scope.path} failed`))
    }
  }
}

/**
 * The onClose hooks, deepest scopes first and newest first within a scope (a plugin closes
 * before what it depends on): avvio's close queue (Fastify 3 and 5) runs them so. Scopes in the
 * reverse of the order they loaded (depth first), so a later sibling's subtree before an earlier
 * one and every child before its parent; within a scope the last hook added first, so a hook
 * added after another (it may use what the earlier one releases) runs before it.
 */
export async function runOnCloseHooks(boot: BootContext, serve: ServeContext): Promise<void> {
  for (const scope of scopesDepthFirst(boot.rootScope).reverse()) {
    for (const hook of [...scope.hooks.own('onClose')].reverse()) {
      await callLifecycleHook(hook.fn, hook.scope, [hook.scope], hook.callback, serve.limits.pluginTimeout, `onClose hook in ${scope.path}`, !isSelfBoundedHook(hook.fn))
        .catch((error: unknown) => serve.log.error({ err: error }, `onClose hook in ${scope.path} failed`))
    }
  }
}
