import type { InjectionToken } from 'tsyringe'
import type { ProviderToken } from '../decorators/internal'

/**
 * A provider token as tsyringe types it. Its InjectionToken refuses abstract classes (NestJS's usual
 * token for a swappable service), which it registers and resolves as any other class at run time:
 * the cast from the public ProviderToken, for tokens a user gives (the injector's own casts of tokens
 * it already holds as tsyringe's do not go through it).
 */
export const injectionToken = <T>(token: ProviderToken<T>): InjectionToken<T> => token as InjectionToken<T>
