import { injectable } from '../../../src'

/** The service's notion of "now": cancellation windows are decided by it, so tests replace it. */
@injectable()
export class Clock {
  now(): Date { return new Date() }
}
