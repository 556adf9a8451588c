// The outgoing call to the CDN after an edit (docs/recipes-content-api.md); tests replace it through createApp overrides.
import { injectable } from '../../../src'

export class CdnConfig { constructor(readonly purgeUrl: string, readonly token: string) {} }

/** Tells the CDN to drop its copies of these paths (surrogate keys would do too). */
@injectable()
export class CdnPurger {
  constructor(private readonly config: CdnConfig) {}
  async purge(paths: string[]): Promise<void> {
    const response = await fetch(this.config.purgeUrl, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${this.config.token}` },
      body: JSON.stringify({ paths }), signal: AbortSignal.timeout(2_000),
    })
    if (!response.ok) throw new Error(`CDN purge answered ${response.status}`)
  }
}
