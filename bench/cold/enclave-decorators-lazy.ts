// Cold-start worker: Enclave's decorators with schemaCompilation 'lazy'.
import { decoratorsBuild } from './enclave-decorators'

decoratorsBuild(true)
