// The runtime's public surface. Not exported on purpose: ScopeImpl, CompiledRoute, the
// pipeline and boot internals: free to change.
export { createServer } from './server/create-server'
export { lift } from './declare/lift'
export { derive } from './declare/derive'
export type { RouteConfigShape, RouteConfigView, WithRouteConfig, ConfiguredRequest } from './route-config'
export type { PathParams, PathParamNames } from './path-params-type'
export type { DeriveStage, DeriveOptions, Derived, DerivePlugin, Deriver } from './declare/derive'
export type { LiftDependency } from './declare/lift'
export type { LiftMeta } from './shared/lift-marks'
export { type } from './shared/provided'
export type { TypeMark, ProvidesMeta, Provided, NothingProvided, ProvidedBy, ProvidedOf, ProvidingPlugin, RequiringPlugin, MergeProvided, WithProvided } from './shared/provided'
export type { RequestWith, ReplyWith, RequestOn, ReplyOn, RawServerKinds } from './request-with'
export type { RawServerTypes, HttpRaw, HttpsRaw, Http2Raw, Http2SecureRaw, RawServerFor, RawIn, RawRequestOf, RawReplyOf } from './shared/raw-server'
export { FrameworkError, isFrameworkError } from './errors/framework-error'
export { HttpError } from './errors/http-error'
export type { HttpErrorOptions } from './errors/http-error'
export { allErrorCodes } from './errors/all-codes'
export { partValidatorCompiler, ajv8CompilersFactory, defaultSchemaErrorFormatter } from './schemas'
export { describeSecurity } from './shared/security'
export type { SecurityDescription } from './shared/security'
export type {
  Inspection, RouteInspection, ScopeInspection, SchemaInspection, HookInspection, Declared, FunctionInspection, ErrorHandlerInspection,
  ModuleInspection, SecurityInspection, RouteSchemaInspection, ScopeAnnotation,
} from './shared/introspection'
export type { OpenApiDocument, OpenApiInfo, OpenApiOptions, OpenApiOperation, OpenApiParameter, OpenApiResponse } from './shared/openapi-types'
export type {
  Scope, Request, Reply, RouteOptions, RouteShorthandOptions, PluginRouteOptions, Handler, RequestHook, PayloadHook, ErrorHook, ErrorHandler, HandledError, ValidationResult,
  NotFoundHandler, HookName, Plugin, PluginFunction, PluginOptionsOf, RegisterOptions, AsyncPlugin, CallbackPlugin, PluginOptions, ServerOptions, ListenOptions,
  InjectChain, InjectOptions, InjectResponse, InjectCookie, ValidationError, Logger, ContentTypeParserFn, ContentTypeParserOptions, DoneFn,
  RequestBase, RequestDecorations, ReplyDecorations, ScopeDecorations, RequestDecorationValue, ReplyDecorationValue, DeclaredRequestName, DeclaredReplyName, DeclaredScopeName, ScopeDecorationValue, TypedRequest, RequestOf, RouteHandler, HandlerResult,
  RequestFor, ResultFor, GenericRouteHandler, ReplyBase, Registered, TypedScope, ScopeWith, PluginFor, FitsScope, PluginForAnotherScope, DependenciesNotRegistered, HttpsOptions, WebSocketRouteHandler, RegisterArguments, TypedRequestHook, TypedPayloadHook, TypedErrorHook, TypedErrorHandler, TypedNotFoundHandler,
  RuntimeRouteSchema, ScopeRouteShortcut, ReadyOptions, FrameworkErrorsHandler, LogLevel, LogSerializers, ServerLogger, PluginModule, SchemaCacheOptions, SchemaCacheMode, SchemaCacheStats,
} from './types'
export type { FastifyTypedErrorHook, FastifyTypedHook, FastifyTypedHookIn, FastifyTypedPayloadHook, NotAFastifyErrorHook, NotAFastifyHook, NotAFastifyPayloadHook } from './fastify-typed-hook'
export type { SchemaType, TypedRouteSchema, ResponseOf, TypeBoxSchema, TypeBoxKinded, TypeBoxLike, StandardSchemaLike } from './typed-schemas'
export type { ResponseAt, NoResponseSchemaFor } from './reply-status'
export type { RouteGeneric, RouteGenericInterface } from './route-generic'
export type { FastifyRequestDecorations, FastifyReplyDecorations, FastifyInstanceDecorations } from './fastify-decorations'
export type { FastifyHttpPart, FoundRoute, ReplySerializationApi, RequestSchemaApi, RouteLookup, ScopeRouteLookup, SerializationFunction, ValidatedBy, ValidationFunction, ValidationIssue } from './fastify-api-types'
export type { SchemaCompilation } from './shared/schema-compilation'
export type { ConstraintStrategy, ConstraintStore, VersioningOptions } from './shared/custom-constraints'
export type { BootProfile, RouteCompileCost, ScopeCompileCost } from './shared/boot-profile'
export type {
  JsonSchema, SharedSchema, RouteSchema, HttpPart, ValidatorCompiler, ValidatorCompilerInput, ValidateFunction,
  SerializerCompiler, SerializerCompilerInput, SerializeFunction, ReplySerializer, SchemaErrorFormatter, ValidatorOptions,
  ValidatorPlugin, CompilersFactory, SchemaControllerOptions, SchemaBucket, SchemaBucketFactory,
} from './schemas/types'
