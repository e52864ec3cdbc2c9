import type { IdentityClient } from '@cumulus/sdk'
import { useIdentityResource } from '../session/use-identity-resource'

const loadProviders = (client: IdentityClient) => client.providers()

/** The identity providers the operator configured (GET /v1/auth/providers); see useIdentityResource. */
export function useProviders() {
  const { state, reloading, reload } = useIdentityResource(loadProviders)
  return { state, reloading, reload }
}
