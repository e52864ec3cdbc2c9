import { useState } from 'react'

/**
 * A provider's icon: the image the operator configured, else (none, or it fails to load) a
 * generic sign-in mark. Decorative: the provider's name is always written next to it.
 */
export function ProviderIcon({ icon, className = 'size-5' }: { icon: string; className?: string }) {
  const [broken, setBroken] = useState<string | null>(null)
  if (icon && broken !== icon) {
    return <img src={icon} alt="" aria-hidden="true" referrerPolicy="no-referrer" onError={() => setBroken(icon)} className={`${className} shrink-0 object-contain`} data-testid="provider-icon" />
  }
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className={`${className} shrink-0`} fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" data-testid="provider-icon-generic">
      <circle cx="12" cy="12" r="9" />
      <path d="M3.6 9h16.8M3.6 15h16.8M12 3a14 14 0 0 1 0 18M12 3a14 14 0 0 0 0 18" />
    </svg>
  )
}
