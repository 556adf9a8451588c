// Cold-start worker: Enclave's runtime API with schemaCompilation 'lazy'.
import { enclaveBuild } from './enclave-runtime'

enclaveBuild(true)
