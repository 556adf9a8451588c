// The front end's entry (`enclave/client`): a contract and its typed client, nothing of the server
// (no node:http, no ajv): what a browser bundle imports. Also exported from 'enclave'.
export { defineContract } from '../contract/define-contract'
export type { Contract, ContractRoute, ContractMethod } from '../contract/define-contract'
export { createClient } from './create-client'
export type { ClientOptions, ClientHeaders } from './create-client'
export type { Client, ClientCall, ClientRequest, ClientResult, ClientAnswer, CallOptions, HttpStatus, QueryValue } from './client-types'
export type { InjectTarget } from './transports'
export type { RawBody } from './request-body'
export type { RefusedCall } from './request-validation'
