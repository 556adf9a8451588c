export { Module } from './module'
export { Route } from './route'
export { Get, Head, Post, Put, Patch, Delete, Options } from './http-methods'
export { Schema } from './schema'
export { SchemaClass } from './schema-class'
export type { SchemaClassBase, SchemaClassOptions, SchemaReference } from './schema-class'
export type { RouteMethodDecorator } from './handler-fit'
export { DecorateRequest, DecorateReply } from './decorate'
export { Hook } from './hook'
export { ErrorHandler } from './error-handler'
export { Body, Query, Params, Headers, Req, Reply } from './params'
export { DeclarationError, isDeclarationError } from './declaration-error'
export { decoratorErrorCodes } from './decorator-codes'
export type { DecoratorErrorCode } from './decorator-codes'
export type {
  Class, ConcreteClass, ModuleOptions, PluginEntry, ProviderEntry, ClassProviderEntry, ValueProviderEntry,
  FactoryProviderEntry, SchemaEntry, RouteMethodOptions, DecoratorRouteOptions, HttpMethodName,
} from './types'
export type { RouteShortcut } from './http-methods'

