import { expect } from 'chai'
import { createApp } from '../../src/modules'

/** createApp(root) must fail: returns the error, and closes the app if it booted after all. */
export async function bootError(root: Function): Promise<Error & { code: string }> {
  let app
  try {
    app = await createApp(root)
  } catch (error) {
    return error as Error & { code: string }
  }
  await app.close()
  expect.fail('createApp() was expected to fail')
}
