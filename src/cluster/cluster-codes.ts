/** Error codes of startCluster(); same shape as the other layers' tables. */
export const clusterErrorCodes = {
  ENC_ERR_CLUSTER_INVALID_OPTION: { status: null, summary: 'startCluster() was given a workers count, delay, timeout or port that is not a non-negative integer (workers >= 1)' },
} as const
