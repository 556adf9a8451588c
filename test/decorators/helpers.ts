import { Module } from '../../src/decorators'
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

/**
 * Lists classes that carry route methods in a throwaway module. createApp refuses to boot while
 * any class with route methods is listed by no module at all (a forgotten controller), and these
 * unit tests declare route classes on purpose without a module.
 */
export function adopt(...controllers: Function[]): void {
  Module({ controllers: controllers as never })(class AdoptedByDecoratorTests {})
}
