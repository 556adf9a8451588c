import { codeSummaries, defineError as e, errorFactory } from '../runtime/internal'

/** Errors of startCluster(), each declared once (status, docs/errors.md summary, message template). */
export const clusterErrors = {
  ENC_ERR_CLUSTER_INVALID_OPTION: e({ status: null, summary: 'startCluster() was given an unknown option (did you mean ...), or a workers count, delay, timeout or port that is not a non-negative integer (workers >= 1)',
    message: (a: { name: string; value: unknown; min: number; max?: number } | { unknown: string; known: readonly string[] }) => 'unknown' in a
      ? `startCluster(factory, options): ${a.unknown}. It takes ${a.known.join(', ')}.`
      : a.max === undefined
      ? `startCluster({ ${a.name}: ${String(a.value)} }): ${a.name} must be an integer >= ${a.min}. Omit it for the default.`
      : `startCluster({ ${a.name}: ${String(a.value)} }): ${a.name} must be an integer from ${a.min} to ${a.max}.` }),
}

export const clusterError = errorFactory(clusterErrors)
/** Status and summary per code (the columns of docs/errors.md's table). */
export const clusterErrorCodes = codeSummaries(clusterErrors)
