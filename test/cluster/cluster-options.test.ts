// startCluster() checks its options before forking anything (docs/operations.md, "Scale-out").
import { expect } from 'chai'
import { startCluster } from '../../src/cluster'
import { createServer } from '../../src/runtime'

describe('startCluster: options', () => {
  for (const options of [{ workers: 0 }, { workers: 1.5 }, { respawnDelay: -1 }, { stopTimeout: Number.NaN }, { port: 70000 }]) {
    it(`refuses ${JSON.stringify(options)} with ENC_ERR_CLUSTER_INVALID_OPTION, before forking a worker`, async () => {
      const error = await startCluster(() => createServer(), options).then(() => null, (e: Error & { code: string }) => e)
      expect(error?.code).to.equal('ENC_ERR_CLUSTER_INVALID_OPTION')
      expect(error?.message).to.match(/^startCluster\(\{ \w+: /)
    })
  }
})
