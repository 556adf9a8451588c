/**
 * The `version` constraint (Accept-Version) with find-my-way 9's semver store, except for
 * pre-release versions (`1.3.0-rc.1`). find-my-way 9 reads `0-rc` as patch 0, so a route at
 * `1.3.0-rc.1` answered `1.x`, `*` and even `1.3.0`: a client asking for a release got the release
 * candidate. Fastify 3.27.4's router (semver-store) never answers a range with such a version, and
 * semver keeps pre-releases out of ranges too. Here a pre-release is stored under its exact text
 * only, so that `Accept-Version: 1.3.0-rc.1` reaches it and no range does.
 */
// find-my-way ships its strategies without types; this is the shape its constrainer reads.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const acceptVersion = require('find-my-way/lib/strategies/accept-version') as VersionStrategy

interface VersionStore {
  get(version: string): unknown
  set(version: string, store: unknown): void
}

interface VersionStrategy {
  name: string
  mustMatchWhenDerived: boolean
  storage(): VersionStore
  deriveConstraint(req: { headers: Record<string, unknown> }): unknown
  validate(value: unknown): void
}

function isPreRelease(version: string): boolean {
  // The part before any build metadata (`1.0.0+build` stays a release, as in find-my-way).
  const plus = version.indexOf('+')
  return (plus === -1 ? version : version.slice(0, plus)).includes('-')
}

export const versionStrategy: VersionStrategy = {
  name: acceptVersion.name,
  mustMatchWhenDerived: acceptVersion.mustMatchWhenDerived,
  validate: acceptVersion.validate,
  // find-my-way asks a custom strategy for it; the router hands find() the derived values itself.
  deriveConstraint: (req) => req.headers['accept-version'],
  storage(): VersionStore {
    const releases = acceptVersion.storage()
    let preReleases: Map<string, unknown> | null = null
    return {
      get(version) {
        // Only a version that has a pre-release tag can name one: releases pay no Map lookup.
        if (preReleases !== null && typeof version === 'string' && version.includes('-')) {
          const found = preReleases.get(version)
          if (found !== undefined) return found
        }
        return releases.get(version)
      },
      set(version, store) {
        if (typeof version === 'string' && isPreRelease(version)) {
          if (preReleases === null) preReleases = new Map()
          preReleases.set(version, store)
          return
        }
        releases.set(version, store)
      },
    }
  },
}
