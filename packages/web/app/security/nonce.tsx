import { createContext, useContext } from 'react'

/**
 * The script nonce of the response being rendered (decision 016). The web plugin draws a fresh
 * one per response and names it in the Content-Security-Policy; entry.server.tsx provides it to
 * the render. In the browser there is none (''): scripts added after load are React Router's
 * module imports, which 'strict-dynamic' admits, and the browser hides nonces from the DOM anyway.
 */
const NonceContext = createContext('')

export const NonceProvider = NonceContext.Provider

/** The nonce every inline `<script>` the server renders must carry; '' in the browser. */
export function useNonce(): string {
  return useContext(NonceContext)
}
