import { injectable } from '../../../src'

export interface Charge { id: string; userId: string; cents: number; reference: string }

/** The payment provider's client (a real one calls its HTTP API); tests override it with a fake. */
@injectable()
export class Payments {
  async charge(userId: string, cents: number, reference: string): Promise<Charge> {
    throw new Error(`no payment provider configured (charge ${cents} to ${userId} for ${reference})`)
  }
  async refund(chargeReference: string, cents: number): Promise<void> {
    throw new Error(`no payment provider configured (refund ${cents} of ${chargeReference})`)
  }
}
