import { injectable } from '../../../../src'

/** The one place that talks to subscribers' URLs; a test may replace it (override) when delivery is not the point. */
@injectable()
export class HttpSender {
  async post(url: string, headers: Record<string, string>, body: string): Promise<number> {
    const response = await fetch(url, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(5_000) })
    await response.body?.cancel()
    return response.status
  }
}
