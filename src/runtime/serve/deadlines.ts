import type { ReplyImpl } from './reply'
import type { Logger } from '../types'
import { sweepInterval } from '../shared/server-options'

/**
 * One kind of request deadline (handlerTimeout, bodyTimeout): a FIFO of the replies it watches.
 * Every entry has the same duration, so the list is in deadline order and a sweep stops at the
 * first entry that has not expired. Linked through fields of the reply itself: entering and
 * leaving write a few pointers and allocate nothing.
 */
export class DeadlineList {
  head: ReplyImpl | null = null
  tail: ReplyImpl | null = null
  /** The timeout, in ms. */
  readonly ms: number
  /** Sweeps an entry survives: it expires at the first sweep more than this many ticks after it entered. */
  ticks: number
  readonly onExpire: (reply: ReplyImpl) => void

  constructor(ms: number, ticks: number, onExpire: (reply: ReplyImpl) => void) {
    this.ms = ms
    this.ticks = ticks
    this.onExpire = onExpire
  }
}

/**
 * The request deadlines of one server, without a timer per request. A setTimeout per request
 * cost about 0.8 µs of CPU (6% of a GET in the benchmark: a Timeout object to allocate and
 * collect, a clock read, two list operations); here a request records the sweep counter and
 * links itself into a list, and one interval (unref'd, running only while something is
 * watched) advances the counter and expires what is due. A deadline fires between its duration
 * and its duration plus one sweep interval: a quarter of the shortest timeout, at most 1 s.
 */
export class Deadlines {
  /** Sweeps so far: the clock entries are timed with. */
  tick = 0
  intervalMs: number
  readonly #lists: DeadlineList[] = []
  readonly #log: Logger
  #interval: NodeJS.Timeout | null = null
  /** inject() calls in flight (holdOpen()): while any, the sweep keeps the process alive. */
  #holds = 0

  constructor(timeoutsMs: readonly number[], log: Logger) {
    this.#log = log
    this.intervalMs = sweepInterval(timeoutsMs, 1000)
  }

  /**
   * A list for a timeout of `ms`; `onExpire` runs for each reply still in it when that is due.
   * Routes with the same own handlerTimeout share one list. A route's timeout shorter than the
   * server's ones shortens the sweep interval: routes are compiled at boot, before any request
   * is watched, so no entry was timed with the old interval.
   */
  list(ms: number, onExpire: (reply: ReplyImpl) => void): DeadlineList {
    const same = this.#lists.find((list) => list.ms === ms && list.onExpire === onExpire)
    if (same !== undefined) return same
    const interval = sweepInterval([ms], this.intervalMs)
    if (interval < this.intervalMs) {
      this.intervalMs = interval
      for (const list of this.#lists) list.ticks = Math.ceil(list.ms / interval)
      if (this.#interval !== null) { clearInterval(this.#interval); this.#start() }
    }
    const list = new DeadlineList(ms, Math.ceil(ms / this.intervalMs), onExpire)
    this.#lists.push(list)
    return list
  }

  /** Starts (or restarts) `reply`'s deadline in `list`, leaving the list it was in. */
  enter(list: DeadlineList, reply: ReplyImpl): void {
    if (reply.deadlineList !== null) this.leave(reply)
    reply.deadlineList = list
    reply.deadlineSince = this.tick
    reply.deadlinePrev = list.tail
    if (list.tail === null) list.head = reply
    else list.tail.deadlineNext = reply
    list.tail = reply
    if (this.#interval === null) this.#start()
  }

  /** Ends `reply`'s deadline, if it has one. */
  leave(reply: ReplyImpl): void {
    const list = reply.deadlineList
    if (list === null) return
    const { deadlinePrev: prev, deadlineNext: next } = reply
    if (prev === null) list.head = next
    else prev.deadlineNext = next
    if (next === null) list.tail = prev
    else next.deadlinePrev = prev
    reply.deadlineList = null
    reply.deadlinePrev = null
    reply.deadlineNext = null
  }

  /**
   * An inject() is in flight: until the returned function is called, a deadline keeps the
   * process alive, as Fastify 5's handlerTimeout timer does. A listening server's sockets keep
   * it alive by themselves; an inject-only process (a Lambda handler, a test script) has nothing
   * else, and a request whose handler never answers would end the process, unanswered, instead
   * of getting its 503.
   */
  holdOpen(): () => void {
    if (this.#holds++ === 0) this.#interval?.ref()
    let released = false
    return () => {
      if (released) return
      released = true
      if (--this.#holds === 0) this.#interval?.unref()
    }
  }

  #start(): void {
    this.#interval = setInterval(() => this.#sweep(), this.intervalMs)
    // A pending deadline must not keep a process alive that has nothing else to do (but see holdOpen()).
    if (this.#holds === 0) this.#interval.unref()
  }

  #sweep(): void {
    const tick = ++this.tick
    let watched = false
    for (const list of this.#lists) {
      // Bounded: each pass removes the head, and an entry re-entered by onExpire is not yet due.
      for (let head = list.head; head !== null && tick - head.deadlineSince > list.ticks; head = list.head) {
        this.leave(head)
        // Runs in a timer: a throw here would be an uncaught exception, so it is logged instead.
        try {
          list.onExpire(head)
        } catch (error) {
          this.#log.error({ reqId: head.request.id, err: error }, 'answering an expired request failed')
          if (!head.raw.destroyed) head.raw.destroy()
        }
      }
      if (list.head !== null) watched = true
    }
    if (!watched && this.#interval !== null) {
      clearInterval(this.#interval)
      this.#interval = null
    }
  }
}
