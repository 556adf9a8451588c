export { server, build, bootError, thrown, recordingLogger, deferred, type LogEntry } from '../support/servers'
export { rawRequest, chunked, type RawResponse } from '../support/raw-http'
