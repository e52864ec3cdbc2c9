import type { ReactNode } from 'react'

/** A 24×24 icon of the player's controls; decorative (the control it sits in carries the name). */
function Icon({ children, className = 'size-5' }: { children: ReactNode; className?: string }) {
  return (
    <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false" className={className}>
      {children}
    </svg>
  )
}

type P = { className?: string }

export const PlayIcon = (p: P) => <Icon {...p}><path d="M7 4.5v15l12-7.5z" fill="currentColor" /></Icon>
export const PauseIcon = (p: P) => <Icon {...p}><path d="M8 5v14M16 5v14" strokeWidth="3" /></Icon>
export const VolumeIcon = (p: P) => <Icon {...p}><path d="M4 9.5v5h3.5L12 18V6L7.5 9.5z" fill="currentColor" /><path d="M15.5 9a4 4 0 0 1 0 6M18 6.5a7.5 7.5 0 0 1 0 11" /></Icon>
export const MutedIcon = (p: P) => <Icon {...p}><path d="M4 9.5v5h3.5L12 18V6L7.5 9.5z" fill="currentColor" /><path d="m16 9.5 5 5m0-5-5 5" /></Icon>
export const SubtitlesIcon = (p: P) => <Icon {...p}><rect x="3" y="5.5" width="18" height="13" rx="2" /><path d="M10.5 10.5a2 2 0 1 0 0 3M17 10.5a2 2 0 1 0 0 3" /></Icon>
export const PictureInPictureIcon = (p: P) => <Icon {...p}><rect x="3" y="5" width="18" height="14" rx="2" /><rect x="12" y="12" width="7" height="5" rx="1" fill="currentColor" /></Icon>
export const FullscreenIcon = (p: P) => <Icon {...p}><path d="M4 9V4h5M15 4h5v5M20 15v5h-5M9 20H4v-5" /></Icon>
export const ExitFullscreenIcon = (p: P) => <Icon {...p}><path d="M9 4v5H4M20 9h-5V4M15 20v-5h5M4 15h5v5" /></Icon>
export const KeyboardIcon = (p: P) => <Icon {...p}><rect x="2.5" y="6" width="19" height="12" rx="2" /><path d="M6 10h.01M9.5 10h.01M13 10h.01M16.5 10h.01M7.5 14h9" /></Icon>
export const LockIcon = (p: P) => <Icon {...p}><rect x="5" y="10.5" width="14" height="10" rx="2" /><path d="M8 10.5V7.5a4 4 0 0 1 8 0v3" /></Icon>
