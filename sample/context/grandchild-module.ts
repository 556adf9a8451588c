import { DecorateRequest, Module } from '../../src/decorators'
import { ThreeController } from './context-controllers'

/** `grandchildContext` of spec §4.1: decorates `bar`, serves GET /three. */
@DecorateRequest('bar', 'bar')
@Module({ controllers: [ThreeController] })
export class GrandchildModule {}
