// Boot worker: Enclave through decorators with schemaCompilation 'lazy' (information only).
import { measureDecoratorsBoot } from './enclave-decorators'

measureDecoratorsBoot(true)
