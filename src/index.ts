// Enclave's public surface, listed name by name. `Reply` is both the @Reply() parameter
// decorator and the reply type (src/decorators/params.ts), so `@Reply() reply: Reply` reads naturally.
// Internals (ScopeImpl, CompiledRoute, the
// pipeline, boot and compile steps, metadata keys) are not exported on purpose: free to change.
import 'reflect-metadata'

export { createApp, override, resolveProvider, exitCodes, Logger, REQUEST, REPLY, INQUIRER, withRequestScope, ModuleRef } from './modules'
export type { ModuleRefOptions } from './modules'
export type { App, AppOn } from './modules'
export { withApp } from './testing'
export { startCluster } from './cluster'
export {
  Module, Route, Implements, Get, Head, Post, Put, Patch, Delete, Options, Schema, SchemaClass, partialSchema, DecorateRequest, DecorateReply, Hook, ErrorHandler,
  NotFoundHandler, OnRequest, PreValidation, PreHandler, PreParsing, PreSerialization, OnSend, OnResponse, OnError, OnTimeout, HttpCode, UseInterceptors, routeMetadata, Reflector, SetMetadata, ConfigurableModuleBuilder, usePlugin, Requires, RequestScoped, Transient, Body, Query, Params, Headers, Req, Reply, routePath, createParamDecorator,
  DeclarationError, isDeclarationError,
} from './decorators'
export { bearerAuth, bearerAuthHook, bearerAuthSecurity, authOf, health, openapiRoute } from './plugins'
export {
  createServer, lift, derive, type, FrameworkError, HttpError, isFrameworkError,
  partValidatorCompiler, ajv8CompilersFactory, defaultSchemaErrorFormatter, describeSecurity,
} from './runtime'
export { errorCodeTable } from './error-code-table'
// Contracts and the typed client (docs/openapi-and-client.md, "Typed client"); `enclave/client` has the client part alone, for a front end.
export { defineContract, createClient } from './client'
export { implement } from './contract/implement'
export type { Contract, ContractRoute, ContractMethod, Client, ClientCall, ClientRequest, ClientResult, ClientAnswer, CallOptions, HttpStatus, QueryValue, ClientOptions, ClientHeaders, InjectTarget, RawBody, RefusedCall } from './client'
export type { ContractHandler, ContractHandlers, ContractRouteImplementation } from './contract/implement'
// tsyringe's own decorators, so an app imports one package and uses the tsyringe copy Enclave
// resolves with (a second copy's @injectable() is invisible to it: ENC_ERR_MODULE_TSYRINGE_COPIES).
// `@singleton()` registers in tsyringe's global container: one instance per process, visible from
// every module whatever its providers say; `@injectable()` plus a module's providers is the scoped form.
// delay(): NestJS's forwardRef() for two singletons that inject each other (one side delayed).
export { injectable, inject, singleton, delay } from 'tsyringe'

export type {
  Scope, Request, RouteOptions, RouteShorthandOptions, PluginRouteOptions, Handler, RequestHook, PayloadHook, ErrorHook,
  ErrorHandler as ErrorHandlerFn, HandledError, ValidationResult, HookName, Plugin, AsyncPlugin, CallbackPlugin, PluginOptions, PluginOptionsOf, RegisterOptions, LiftMeta, LiftDependency,
  ServerOptions, ListenOptions, InjectChain, InjectOptions, InjectResponse, InjectCookie, ValidationError, ContentTypeParserFn,
  ContentTypeParserOptions, DoneFn, JsonSchema, SharedSchema, RouteSchema, HttpPart, ValidatorCompiler,
  ValidatorCompilerInput, ValidateFunction, SerializerCompiler, SerializerCompilerInput, SerializeFunction, ReplySerializer,
  SchemaErrorFormatter, ValidatorOptions, ValidatorPlugin, CompilersFactory, SchemaControllerOptions, SchemaBucket, SchemaBucketFactory,
  RequestBase, RequestDecorations, ReplyDecorations, ScopeDecorations, RequestDecorationValue, ReplyDecorationValue, DeclaredRequestName, DeclaredReplyName, DeclaredScopeName, ScopeDecorationValue, TypedRequest, RequestOf, RouteHandler, HandlerResult,
  RuntimeRouteSchema, ScopeRouteShortcut, SchemaType, TypedRouteSchema, ResponseOf, ResponseAt, NoResponseSchemaFor, TypeBoxSchema, TypeBoxKinded, TypeBoxLike, StandardSchemaLike,
  RouteGeneric, RouteGenericInterface, RequestFor, ResultFor, GenericRouteHandler, ReplyBase, PathParams, PathParamNames,
  ReadyOptions, SchemaCompilation, BootProfile, RouteCompileCost, ScopeCompileCost, FrameworkErrorsHandler, LogLevel, LogSerializers, ServerLogger, PluginModule,
  SchemaCacheOptions, SchemaCacheMode, SchemaCacheStats, HttpErrorOptions, ConstraintStrategy, ConstraintStore, VersioningOptions,
  FastifyRequestDecorations, FastifyReplyDecorations, FastifyInstanceDecorations,
} from './runtime'
// Typed, scope-aware plugins (Elysia's): lift(plugin, { name, provides }), register() typed by it, @Requires + RequestWith.
export type {
  DeriveStage, DeriveOptions, Derived, DerivePlugin, Deriver, RouteConfigShape, RouteConfigView, WithRouteConfig, ConfiguredRequest,
  TypeMark, ProvidesMeta, Provided, NothingProvided, ProvidedBy, ProvidedOf, ProvidingPlugin, RequiringPlugin, MergeProvided, WithProvided, Registered, TypedScope, ScopeWith, PluginFor, FitsScope, PluginForAnotherScope, DependenciesNotRegistered, RequestWith, ReplyWith, RequestOn, ReplyOn, RawServerKinds,
  RegisterArguments, TypedRequestHook, TypedPayloadHook, TypedErrorHook, TypedErrorHandler, TypedNotFoundHandler,
} from './runtime'
// A route hook typed for Fastify (@fastify/passport's authenticate(), @fastify/auth's auth([...])), as onRequest/preValidation/preHandler take it.
export type { FastifyTypedErrorHook, FastifyTypedHook, FastifyTypedHookIn, FastifyTypedPayloadHook, NotAFastifyErrorHook, NotAFastifyHook, NotAFastifyPayloadHook } from './runtime'
// @fastify/websocket's `{ websocket: true }` route handler: (socket, request), the request typed from the schema.
export type { WebSocketRouteHandler } from './runtime'
// The server a scope runs on, typed from createServer()'s http2/https options (Fastify's RawServer).
export type { HttpsOptions, RawServerTypes, HttpRaw, HttpsRaw, Http2Raw, Http2SecureRaw, RawServerFor, RawIn, RawRequestOf, RawReplyOf } from './runtime'
// Fastify 4/5's request/reply schema methods and Fastify 5's route lookups (migrant10).
export type {
  FastifyHttpPart, FoundRoute, ReplySerializationApi, RequestSchemaApi, RouteLookup, ScopeRouteLookup, SerializationFunction, ValidatedBy, ValidationFunction, ValidationIssue,
} from './runtime'
export type {
  Inspection, RouteInspection, ScopeInspection, SchemaInspection, HookInspection, Declared, FunctionInspection, ErrorHandlerInspection,
  ModuleInspection, SecurityInspection, RouteSchemaInspection, ScopeAnnotation, SecurityDescription,
  OpenApiDocument, OpenApiInfo, OpenApiOptions, OpenApiOperation, OpenApiParameter, OpenApiResponse,
} from './runtime'
export type {
  ModuleOptions, RouteMethodOptions, DecoratorRouteOptions, SchemaClassBase, SchemaClassOptions, SchemaReference, ErrorHandlerOptions,
  NotFoundHandlerOptions, RouteHookDecorator, HttpCodeDecorator, PartialSchema, RouteMetadata, RouteMetadataDecorator, RouteConfigHolder, MetadataKey, MetadataTarget, ReflectorDecorator, ConfigurableModule, ConfigurableModuleAsyncOptions, ConfigurableModuleBuilderOptions, ConfigurableModuleCls, ConfigurableModuleDefinition, ConfigurableModuleOptionsFactory, GuardClass, RouteHookArg, HookClass, PayloadStreamHook, UsePluginOptions, ResolvedTokens,
  CustomParam, CustomParamBrand, CustomParamDecorator, SchemaParam, SchemaParamBrand, ParamSchemaDecorator, ParamSchemaOptions, RoutePath, ParamNameOf, Interceptor, InterceptorClass, InterceptorContext, CallHandler, UseInterceptorsDecorator,
  Intercepted, InterceptedBrand, ProviderScope, ProviderToken, RequestEnd,
} from './decorators'
export type { BearerAuthOptions, BearerAuthHook, BearerIdentity, OpenApiRouteOptions, HealthOptions, HealthCheck, HealthReport, HealthContributor } from './plugins'
export type { AppOptions, ProviderOverride, OverrideRecipe, SignalOptions } from './modules'
export type { TestApp } from './testing'
export type { ClusterOptions, ClusterHandle } from './cluster'
export type { InjectionToken } from 'tsyringe'
