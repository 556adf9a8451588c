import 'reflect-metadata'
import { expect } from 'chai'
import { container, injectable } from 'tsyringe'
import { Module, Route, isDeclarationError } from '../../src/decorators'
import { getModuleMeta } from '../../src/decorators/internal'
import { declarationError } from './helpers'

describe('@Module', () => {
  it('records every list in declaration order, with absent lists empty', () => {
    @Route() class AController {}
    @Module() class ChildModule {}
    const plugin = async () => {}
    @Module({ plugins: [ChildModule, [plugin, { prefix: '/p' }]], controllers: [AController], prefix: '/v1' })
    class ParentModule {}

    const meta = getModuleMeta(ParentModule)!
    expect(meta.plugins).to.deep.equal([ChildModule, [plugin, { prefix: '/p' }]])
    expect(meta.controllers).to.deep.equal([AController])
    expect(meta.providers).to.deep.equal([])
    expect(meta.schemas).to.deep.equal([])
    expect(meta.prefix).to.equal('/v1')
    expect(getModuleMeta(ChildModule)!.prefix).to.equal('')
  })

  it('drops a trailing slash from the prefix', () => {
    @Module({ prefix: '/api/' }) class Api {}
    expect(getModuleMeta(Api)!.prefix).to.equal('/api')
  })

  it('is not inherited: a subclass of a module is not a module', () => {
    @Module() class Base {}
    class Derived extends Base {}
    expect(getModuleMeta(Derived)).to.equal(undefined)
  })

  it('refuses an unknown option key at declaration, naming the class and suggesting the right key', () => {
    const error = declarationError(() => {
      @Module({ imports: [] } as never) class ImportsModule {}
      return ImportsModule
    })
    expect(error.code).to.equal('ENC_ERR_DECL_MODULE_OPTIONS')
    expect(isDeclarationError(error)).to.equal(true)
    expect(error.message).to.contain('ImportsModule').and.contain("'imports'").and.contain("Did you mean 'plugins'")
  })

  it('answers NestJS\'s exports and global with lift(), ends the message with one period (dx2 item 4; docs/migrating-from-nestjs.md, "Coming from NestJS")', () => {
    for (const key of ['exports', 'global', 'imports']) {
      const error = declarationError(() => Module({ [key]: key === 'global' ? true : [] } as never)(class DatabaseModule {}))
      expect(error.code).to.equal('ENC_ERR_DECL_MODULE_OPTIONS')
      expect(error.message).to.contain(`unknown option '${key}'`).and.contain('list it as lift(DatabaseModule) in the parent\'s plugins')
      expect(error.message).to.match(/[^.]\.$/).and.not.contain('..')
    }
    const plain = declarationError(() => Module({ foo: 1 } as never)(class M {}))
    expect(plain.message).to.match(/\(known options: plugins, .*schemaCompilation\)\.$/)
  })

  it('answers NestJS\'s imports: [UsersModule] by naming that module: plugins: [UsersModule], and lift(UsersModule) to inject its providers', () => {
    class UsersModule {}
    class AuditModule {}
    const error = declarationError(() => Module({ imports: [UsersModule, AuditModule] } as never)(class AppModule {}))
    expect(error.code).to.equal('ENC_ERR_DECL_MODULE_OPTIONS')
    expect(error.message).to.contain("Did you mean 'plugins: [UsersModule, AuditModule]'")
      .and.contain("for AppModule to inject UsersModule's providers").and.contain("list lift(UsersModule) in AppModule's plugins")
    expect(error.message).to.match(/[^.]\.$/).and.not.contain('lift(AppModule)')
  })

  it('refuses a list option that is not an array', () => {
    const error = declarationError(() => Module({ controllers: {} as never })(class Bad {}))
    expect(error.code).to.equal('ENC_ERR_DECL_MODULE_OPTIONS')
    expect(error.message).to.contain("'controllers' must be an array")
  })

  it('refuses an undefined entry and points at a circular import', () => {
    const error = declarationError(() => Module({ plugins: [undefined as never] })(class Loop {}))
    expect(error.code).to.equal('ENC_ERR_DECL_MODULE_ENTRY')
    expect(error.message).to.contain('plugins[0] is undefined').and.contain('circular import')
  })

  it('refuses malformed plugin, provider and schema entries', () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ plugins: ['not a plugin'] }, 'plugins[0]'],
      [{ plugins: [[async () => {}]] }, 'plugins[0]'],
      [{ providers: [{ provide: 'x' }] }, 'providers[0]'],
      [{ providers: [{ provide: 'x', useValue: 1, useClass: class {} }] }, 'providers[0]'],
      [{ providers: [{ provide: 'x', useFactory: () => 1, inject: 'y' }] }, 'providers[0]'],
      [{ schemas: [{ type: 'object' }] }, 'schemas[0]'],
    ]
    for (const [options, where] of cases) {
      const error = declarationError(() => Module(options as never)(class Bad {}))
      expect(error.code, where).to.equal('ENC_ERR_DECL_MODULE_ENTRY')
      expect(error.message).to.contain(where)
    }
  })

  it('names what a refused provider object lacks or has twice, and the module (the compile error names the same: test/types/fixtures/module-option-hints.ts)', () => {
    const alone = declarationError(() => Module({ providers: [class Clock {}, { provide: 'audit' }] as never })(class AppModule {}))
    expect(alone.code).to.equal('ENC_ERR_DECL_MODULE_ENTRY')
    expect(alone.message).to.contain('@Module() of AppModule: providers[1] is an object with provide but none of useClass, useValue, useFactory and useExisting')
    const both = declarationError(() => Module({ providers: [{ provide: 'x', useValue: 1, useClass: class {} }] as never })(class AppModule {}))
    expect(both.message).to.contain('providers[0] is an object with useClass and useValue (one of them only)')
    expect(declarationError(() => Module({ providers: ['x'] as never })(class AppModule {})).message).to.contain("providers[0] is 'x'")
  })

  it('refuses a prefix that is not a string (one without a leading slash gets it), and a compiler that is not a function', () => {
    expect(declarationError(() => Module({ prefix: 1 as never })(class A {})).code).to.equal('ENC_ERR_DECL_MODULE_OPTIONS')
    @Module({ prefix: 'v1' }) class Nest {}
    expect(getModuleMeta(Nest)!.prefix).to.equal('/v1')
    expect(declarationError(() => Module({ validatorCompiler: 'ajv' as never })(class B {})).message).to.contain("'validatorCompiler' must be a function")
  })

  it('accepts every provider form', () => {
    class Service {}
    const providers = [Service, { provide: 'a', useClass: Service }, { provide: 'b', useValue: 0 }, { provide: 'c', useFactory: () => 1, inject: ['b'] }]
    @Module({ providers }) class Providing {}
    expect(getModuleMeta(Providing)!.providers).to.deep.equal(providers)
  })

  it('makes the module class constructor-injectable', () => {
    @injectable() class Clock { now() { return 7 } }
    @Module() class TimedModule { constructor(readonly clock: Clock) {} }
    const child = container.createChildContainer()
    child.register(Clock, { useClass: Clock })
    expect(child.resolve(TimedModule).clock.now()).to.equal(7)
  })
})
