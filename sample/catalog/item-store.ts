import 'reflect-metadata' // before tsyringe, which refuses to load without it
import { injectable } from 'tsyringe'
import type { Item, ItemPage, NewItem } from './catalog-schemas'

/** What the store keeps: the public item plus the internal supplierCost (stored, never sent). */
export type StoredItem = Item & Pick<NewItem, 'supplierCost'>

/** In-memory items, one store per app (a provider of CatalogModule, shared by its children). */
@injectable()
export class ItemStore {
  readonly #items = new Map<number, StoredItem>()
  #nextId = 1

  constructor() {
    this.add({ name: 'Kettle', price: 25, sku: 'KIT-0001', tags: ['kitchen'], supplierCost: 11 })
    this.add({ name: 'Lamp', price: 40, tags: ['living', 'light'], supplierCost: 17 })
  }

  add(item: NewItem): StoredItem {
    const stored: StoredItem = { ...item, id: this.#nextId++, tags: item.tags ?? [] }
    this.#items.set(stored.id, stored)
    return stored
  }

  get(id: number): StoredItem | undefined {
    return this.#items.get(id)
  }

  /** Items carrying every one of `tags`, at most `limit`, skipping `offset`. */
  list({ tags, limit, offset }: { tags: readonly string[]; limit: number; offset: number }): ItemPage {
    const matching = [...this.#items.values()].filter((item) => tags.every((t) => item.tags.includes(t)))
    return { items: matching.slice(offset, offset + limit), total: matching.length }
  }
}
