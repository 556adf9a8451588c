// The temporary app the pack test installs the tarball into: what a team writes on day one, as
// file contents. It is compiled by its own TypeScript against the installed package's types, so
// nothing here may reach into the repository.

/** The app's package.json: the tarball, and the versions this repository is tested with. */
export function consumerPackageJson(tarball: string, versions: Record<string, string>): string {
  return JSON.stringify({
    name: 'enclave-consumer',
    version: '1.0.0',
    private: true,
    dependencies: { enclave: `file:${tarball}`, 'reflect-metadata': versions['reflect-metadata'], tsyringe: versions.tsyringe },
    devDependencies: { typescript: versions.typescript, '@types/node': versions['@types/node'] },
  }, null, 2)
}

/** The flags the README's "Getting started" asks for, and nothing that hides type errors. */
export const consumerTsconfig = JSON.stringify({
  compilerOptions: {
    target: 'ES2022',
    module: 'commonjs',
    moduleResolution: 'node',
    strict: true,
    experimentalDecorators: true,
    emitDecoratorMetadata: true,
    skipLibCheck: false,
    outDir: 'dist',
    rootDir: 'src',
    types: ['node'],
  },
  include: ['src'],
}, null, 2)

export const consumerSources: Record<string, string> = {
  'src/greeting-service.ts': `
import { injectable } from 'enclave'

@injectable()
export class Clock {
  now(): string { return 'noon' }
}

/** A provider with a constructor dependency: needs the re-exported injectable(). */
@injectable()
export class GreetingService {
  constructor(private readonly clock: Clock) {}
  greet(name: string): { message: string } { return { message: \`hello \${name}, it is \${this.clock.now()}\` } }
}
`,
  'src/greeting-controller.ts': `
import { Get, Params, Route } from 'enclave'
import { GreetingService } from './greeting-service'

@Route('/greetings')
export class GreetingController {
  constructor(private readonly greetings: GreetingService) {}

  @Get('/:name', {
    schema: {
      params: { type: 'object', properties: { name: { type: 'string', minLength: 2 } } },
      response: { 200: { type: 'object', properties: { message: { type: 'string' } } } },
    },
  })
  greet(@Params('name') name: string): { message: string } {
    return this.greetings.greet(name)
  }
}
`,
  'src/app-module.ts': `
import { Module } from 'enclave'
import { GreetingController } from './greeting-controller'
import { Clock, GreetingService } from './greeting-service'

@Module({ controllers: [GreetingController], providers: [Clock, GreetingService] })
export class AppModule {}
`,
  'src/main.ts': `
import 'reflect-metadata'
import { createApp } from 'enclave'
import { AppModule } from './app-module'

/** Never called: only compiled, to show the package's types are real (not any). */
export function typesAreChecked(): void {
  // @ts-expect-error createApp() takes a module class
  void createApp('AppModule')
}

async function main(): Promise<void> {
  const app = await createApp(AppModule)
  const address: string = await app.listen({ port: 0, host: '127.0.0.1' })
  console.log(\`LISTENING \${address}\`)
  process.once('SIGTERM', () => { void app.close().then(() => process.exit(0)) })
}

main().catch((error: unknown) => { console.error(error); process.exit(1) })
`,
}

/** Loaded with import: the exports map and Node's named-export detection for our CommonJS build. */
export const esmProbe = `
import { createApp, injectable, Module, errorCodeTable } from 'enclave'
console.log(JSON.stringify([typeof createApp, typeof injectable, typeof Module, Array.isArray(errorCodeTable)]))
`
