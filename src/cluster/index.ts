export { startCluster } from './start-cluster'
export type { ClusterOptions } from './cluster-options'
export type { ClusterHandle } from './primary'
export { clusterErrorCodes } from './cluster-codes'
