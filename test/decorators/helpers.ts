import { expect } from 'chai'

/** Runs `declare` (a class declaration) and returns the coded error it throws. */
export function declarationError(declare: () => unknown): Error & { code: string } {
  try {
    declare()
  } catch (error) {
    return error as Error & { code: string }
  }
  expect.fail('the declaration was expected to throw')
}
