import { afterEach } from 'vitest'

// Each component test starts from an empty document. Files that opt into the node environment
// (server code) have no DOM to clean.
afterEach(async () => {
  if (typeof document === 'undefined') return
  const { cleanup } = await import('@testing-library/react')
  cleanup()
  localStorage.clear()
  sessionStorage.clear()
})
