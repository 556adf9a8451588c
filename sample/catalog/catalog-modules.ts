import { ErrorHandler, Module } from '../../src/decorators'
import type { Reply, Request, ValidationError } from '../../src/runtime'
import { catalogSchema, Item, NewItem } from './catalog-schemas'
import { ItemStore } from './item-store'
import { ItemsController } from './items-controller'
import { OrdersController } from './orders-controller'

@Module({ controllers: [ItemsController] })
export class ItemsModule {}

/** A context with its own error handler: validation failures answer 422 here (spec §7, last rows). */
@Module({ controllers: [OrdersController] })
export class OrdersModule {
  @ErrorHandler()
  onError(error: Error & Partial<ValidationError>, _request: Request, reply: Reply) {
    // Anything else goes to the next handler up (here the default one), e.g. the 404 of an unknown item.
    if (error.validation === undefined) throw error
    reply.code(422).send({ statusCode: 422, error: 'Unprocessable Entity', message: error.message, validationContext: error.validationContext })
  }
}

/**
 * Holds what both children use: the shared schemas (visible to the children, spec §3.3.2) and
 * the item store (one instance, injected into both controllers).
 */
@Module({
  schemas: [catalogSchema, Item, NewItem],
  providers: [ItemStore],
  plugins: [ItemsModule, OrdersModule],
})
export class CatalogModule {}
