// Boot worker: Enclave through decorators, eager, with a schema cache a previous process filled
// (information only, as the other decorator rows).
import { measureDecoratorsBoot } from './enclave-decorators'
import { bootCacheDirectory } from './cache-directory'

measureDecoratorsBoot(false, bootCacheDirectory)
