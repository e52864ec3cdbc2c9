import { isIP } from 'node:net'
import { AppError, DriveErrors } from '@cumulus/protocol'
import { type AddressPolicy, createAddressPolicy } from './http/address-policy.js'

const compiled = new WeakMap<readonly string[], AddressPolicy>()

/** The operator's allow-list compiled once per configuration. */
export function addressPolicyOf(allowedNetworks: readonly string[]): AddressPolicy {
  let policy = compiled.get(allowedNetworks)
  if (!policy) {
    policy = createAddressPolicy({ allowedPrivateRanges: allowedNetworks })
    compiled.set(allowedNetworks, policy)
  }
  return policy
}

/**
 * Refuses, when the task is added, a link whose host is written as a private address (in any
 * spelling the URL parser normalises: 0x7f000001, 2130706433, [::ffff:127.0.0.1], …), so the user
 * hears at once rather than from a failed task. Host names are checked when the run resolves
 * them, at the address it connects to, and again on every redirect.
 */
export function refuseLiteralPrivateHost(url: string, allowedNetworks: readonly string[]): void {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '')
  if (isIP(host) !== 0 && !addressPolicyOf(allowedNetworks).isAllowed(host)) {
    throw new AppError(DriveErrors.offline_url_refused, { description: `${host} is not a public address`, metadata: { field: 'url.url' } })
  }
}
