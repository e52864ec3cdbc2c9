import type { IdentityClient } from '@cumulus/sdk'
import { useCallback } from 'react'
import { useIdentityResource } from '../../session/use-identity-resource'

const loadConnectedApps = (client: IdentityClient) => client.connectedApps()

/**
 * The apps the signed-in user let in (GET /v1/user/authorize/clients), worded in the page's
 * language (the server words the scopes); see useIdentityResource. `forget` drops an app from the
 * list once it is disconnected.
 */
export function useConnectedApps() {
  const { state, reloading, reload, update } = useIdentityResource(loadConnectedApps)
  const forget = useCallback((clientId: string) => update((apps) => apps.filter((app) => app.client.client_id !== clientId)), [update])
  return { state, reloading, reload, forget }
}
