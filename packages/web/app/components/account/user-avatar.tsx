import { useState } from 'react'
import { avatarColorOf, initialsOf } from './initials'

const SIZES = { sm: 'size-10 text-sm', md: 'size-12 text-base', lg: 'size-20 text-2xl sm:size-24 sm:text-3xl' } as const

/**
 * The profile picture, or the initials on a colour taken from the account id when there is no
 * picture (or it fails to load). Decorative: the name is always written next to it.
 */
export function UserAvatar({ name, seed, picture, size = 'md' }: { name: string; seed: string; picture?: string; size?: keyof typeof SIZES }) {
  const [broken, setBroken] = useState<string | null>(null)
  if (picture && broken !== picture) {
    return <img src={picture} alt="" aria-hidden="true" onError={() => setBroken(picture)} className={`${SIZES[size]} shrink-0 rounded-full object-cover ring-2 ring-white dark:ring-slate-900`} data-testid="avatar-image" />
  }
  return (
    <span aria-hidden="true" data-testid="avatar-initials" className={`${SIZES[size]} ${avatarColorOf(seed)} inline-flex shrink-0 select-none items-center justify-center rounded-full font-semibold text-white ring-2 ring-white dark:ring-slate-900`}>
      {initialsOf(name)}
    </span>
  )
}
