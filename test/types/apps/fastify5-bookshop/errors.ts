import createError from '@fastify/error'

export const BookNotFound = createError('APP_BOOK_NOT_FOUND', 'Book %s not found', 404)
export const AuthorNotFound = createError('APP_AUTHOR_NOT_FOUND', 'Author %s not found', 404)
export const OutOfStock = createError('APP_OUT_OF_STOCK', 'Book %s is out of stock', 409)
