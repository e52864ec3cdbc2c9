import type { ReactNode } from 'react'

/**
 * The landing pages' illustrations, drawn inline (no image requests, no network). Colours are
 * Tailwind classes, so each drawing follows the light and dark themes. Shapes stand in for
 * text: an illustration never shows words that would need translating.
 */

interface IllustrationProps {
  /** The text alternative; without one the drawing is decorative and hidden from assistive technology. */
  label?: string
  className?: string
}

function Svg({ label, className, viewBox, children }: IllustrationProps & { viewBox: string; children: ReactNode }) {
  return (
    <svg viewBox={viewBox} className={className} {...(label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true })} focusable="false">
      {children}
    </svg>
  )
}

/** Lines standing in for a line of text. */
function TextLine({ x, y, width, className = 'fill-slate-200 dark:fill-slate-700' }: { x: number; y: number; width: number; className?: string }) {
  return <rect x={x} y={y} width={width} height="8" rx="4" className={className} />
}

/** An archive's zipper: alternating teeth and a pull tab, drawn from its top-left corner. */
function Zipper({ x, y, teeth, scale = 1, className }: { x: number; y: number; teeth: number; scale?: number; className: string }) {
  return (
    <g transform={`translate(${x} ${y}) scale(${scale})`} className={className}>
      {Array.from({ length: teeth }, (_, i) => (
        <rect key={i} x={i % 2 === 0 ? 0 : 6} y={i * 5} width="6" height="4" rx="1" />
      ))}
      <rect x="0" y={teeth * 5 + 2} width="12" height="12" rx="3" />
    </g>
  )
}

function Folder({ x, y, scale = 1, className = 'fill-brand-400 dark:fill-brand-500' }: { x: number; y: number; scale?: number; className?: string }) {
  return (
    <g transform={`translate(${x} ${y}) scale(${scale})`}>
      <path d="M0 6a6 6 0 0 1 6-6h14l6 7h22a6 6 0 0 1 6 6v25a6 6 0 0 1-6 6H6a6 6 0 0 1-6-6z" className={className} />
      <path d="M0 14h54v24a6 6 0 0 1-6 6H6a6 6 0 0 1-6-6z" className="fill-white/25" />
    </g>
  )
}

/** The home hero: a drive window with folders and files, a download landing and a cloud. */
export function DriveIllustration({ label, className }: IllustrationProps) {
  return (
    <Svg label={label} className={className} viewBox="0 0 560 440">
      <defs>
        <linearGradient id="drive-ill-sky" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#7aa7ff" />
          <stop offset="1" stopColor="#2f55d4" />
        </linearGradient>
        <linearGradient id="drive-ill-video" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#ff9a8b" />
          <stop offset="1" stopColor="#b45fd6" />
        </linearGradient>
        <linearGradient id="drive-ill-photo" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="#8fe3c6" />
          <stop offset="1" stopColor="#2aa7a0" />
        </linearGradient>
      </defs>
      {/* Soft background blobs */}
      <circle cx="430" cy="90" r="90" className="fill-brand-100 dark:fill-brand-900/60" />
      <circle cx="90" cy="360" r="70" className="fill-sky-100 dark:fill-slate-800" />
      {/* Window */}
      <g>
        <rect x="40" y="110" width="420" height="290" rx="20" className="fill-white stroke-slate-200 dark:fill-slate-900 dark:stroke-slate-700" strokeWidth="2" />
        <path d="M40 130a20 20 0 0 1 20-20h380a20 20 0 0 1 20 20v14H40z" className="fill-slate-50 dark:fill-slate-800" />
        <circle cx="64" cy="128" r="5" className="fill-rose-300 dark:fill-rose-400/70" />
        <circle cx="82" cy="128" r="5" className="fill-amber-300 dark:fill-amber-400/70" />
        <circle cx="100" cy="128" r="5" className="fill-emerald-300 dark:fill-emerald-400/70" />
        <rect x="150" y="121" width="200" height="14" rx="7" className="fill-white dark:fill-slate-900" />
        {/* Sidebar */}
        <rect x="56" y="160" width="96" height="224" rx="12" className="fill-slate-50 dark:fill-slate-800/70" />
        <rect x="68" y="176" width="72" height="22" rx="8" className="fill-brand-100 dark:fill-brand-800/70" />
        <TextLine x={80} y={183} width={48} className="fill-brand-500 dark:fill-brand-300" />
        <TextLine x={74} y={214} width={56} />
        <TextLine x={74} y={238} width={44} />
        <TextLine x={74} y={262} width={52} />
        {/* Storage meter */}
        <rect x="68" y="340" width="72" height="8" rx="4" className="fill-slate-200 dark:fill-slate-700" />
        <rect x="68" y="340" width="30" height="8" rx="4" className="fill-brand-500" />
        <TextLine x={68} y={356} width={50} />
        {/* File grid */}
        <Folder x={176} y={168} scale={1.05} />
        <TextLine x={176} y={222} width={50} />
        <Folder x={256} y={168} scale={1.05} className="fill-amber-300 dark:fill-amber-400" />
        <TextLine x={256} y={222} width={44} />
        <g>
          <rect x="336" y="164" width="100" height="52" rx="10" fill="url(#drive-ill-video)" />
          <path d="M378 178v24l20-12z" fill="#fff" />
        </g>
        <TextLine x={336} y={222} width={62} />
        <g>
          <rect x="176" y="250" width="100" height="64" rx="10" fill="url(#drive-ill-photo)" />
          <path d="M184 306l24-26 18 18 12-12 30 20z" className="fill-white/70" />
          <circle cx="256" cy="266" r="7" className="fill-white/80" />
        </g>
        <TextLine x={176} y={322} width={70} />
        {/* Archive */}
        <g>
          <rect x="294" y="250" width="52" height="64" rx="8" className="fill-violet-200 dark:fill-violet-400/60" />
          <Zipper x={314} y={256} teeth={6} className="fill-violet-600 dark:fill-violet-100" />
        </g>
        <TextLine x={294} y={322} width={48} />
        {/* Document */}
        <g>
          <path d="M366 250h40l14 14v50a0 0 0 0 1 0 0h-54z" className="fill-slate-100 dark:fill-slate-700" />
          <path d="M406 250v14h14" className="fill-slate-200 dark:fill-slate-600" />
          <TextLine x={374} y={276} width={36} className="fill-slate-300 dark:fill-slate-500" />
          <TextLine x={374} y={290} width={28} className="fill-slate-300 dark:fill-slate-500" />
        </g>
        <TextLine x={366} y={322} width={40} />
      </g>
      {/* Cloud, over the corner of the window */}
      <path d="M392 150a38 38 0 0 1 3.4-75.8A52 52 0 0 1 495 64a42 42 0 0 1 9 83z" fill="url(#drive-ill-sky)" />
      <path d="M448 84v42m-15-15 15 15 15-15" stroke="#fff" strokeWidth="7" fill="none" strokeLinecap="round" strokeLinejoin="round" />
      {/* Download card */}
      <g>
        <rect x="300" y="344" width="220" height="72" rx="16" className="fill-white stroke-slate-200 dark:fill-slate-800 dark:stroke-slate-600" strokeWidth="2" />
        <circle cx="332" cy="380" r="16" className="fill-brand-100 dark:fill-brand-900" />
        <path d="M332 370v18m-7-7 7 7 7-7" className="stroke-brand-600 dark:stroke-brand-300" strokeWidth="3" fill="none" strokeLinecap="round" strokeLinejoin="round" />
        <TextLine x={358} y={364} width={110} className="fill-slate-300 dark:fill-slate-500" />
        <rect x="358" y="384" width="140" height="8" rx="4" className="fill-slate-200 dark:fill-slate-700" />
        <rect x="358" y="384" width="96" height="8" rx="4" className="fill-brand-500" />
      </g>
    </Svg>
  )
}

/** Cloud download: a link travels into the cloud and lands as files. */
export function CloudDownloadIllustration({ label, className }: IllustrationProps) {
  return (
    <Svg label={label} className={className} viewBox="0 0 520 360">
      <defs>
        <linearGradient id="cd-ill-cloud" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#8ab4ff" />
          <stop offset="1" stopColor="#3358e0" />
        </linearGradient>
        <radialGradient id="cd-ill-glow" cx="0.5" cy="0.5" r="0.5">
          <stop offset="0" stopColor="#4f7dff" stopOpacity=".45" />
          <stop offset="1" stopColor="#4f7dff" stopOpacity="0" />
        </radialGradient>
      </defs>
      <circle cx="290" cy="150" r="150" fill="url(#cd-ill-glow)" />
      {/* Link chip */}
      <g>
        <rect x="16" y="222" width="190" height="56" rx="28" className="fill-white stroke-slate-200 dark:fill-slate-800 dark:stroke-slate-600" strokeWidth="2" />
        <g className="stroke-brand-600 dark:stroke-brand-300" strokeWidth="4" fill="none" strokeLinecap="round">
          <path d="M52 242h-6a8 8 0 0 0 0 16h6M60 242h6a8 8 0 0 1 0 16h-6M48 250h16" />
        </g>
        <TextLine x={88} y={240} width={96} className="fill-slate-300 dark:fill-slate-500" />
        <TextLine x={88} y={254} width={64} className="fill-slate-200 dark:fill-slate-600" />
      </g>
      {/* Path into the cloud */}
      <path d="M206 250c40 0 50-60 90-80" className="stroke-brand-400" strokeWidth="3" strokeDasharray="2 10" strokeLinecap="round" fill="none" />
      {/* Cloud */}
      <path d="M250 190a46 46 0 0 1 4-91.8A64 64 0 0 1 376 86a52 52 0 0 1 12 104z" fill="url(#cd-ill-cloud)" />
      <path d="M318 104v50m-18-18 18 18 18-18" stroke="#fff" strokeWidth="8" fill="none" strokeLinecap="round" strokeLinejoin="round" />
      {/* Falling files */}
      <path d="M318 196v36" className="stroke-brand-300 dark:stroke-brand-400" strokeWidth="3" strokeDasharray="2 8" strokeLinecap="round" />
      <g>
        <rect x="232" y="244" width="200" height="96" rx="18" className="fill-white stroke-slate-200 dark:fill-slate-900 dark:stroke-slate-700" strokeWidth="2" />
        <Folder x={252} y={264} scale={0.9} />
        <g>
          <rect x="316" y="262" width="50" height="40" rx="8" className="fill-rose-300 dark:fill-rose-400/80" />
          <path d="M336 272v20l14-10z" fill="#fff" />
        </g>
        <g>
          <rect x="378" y="262" width="36" height="40" rx="6" className="fill-violet-200 dark:fill-violet-400/60" />
          <Zipper x={391} y={266} teeth={3} scale={0.8} className="fill-violet-600 dark:fill-violet-100" />
        </g>
        <rect x="252" y="316" width="160" height="8" rx="4" className="fill-slate-200 dark:fill-slate-700" />
        <rect x="252" y="316" width="110" height="8" rx="4" className="fill-emerald-500 dark:fill-emerald-400" />
      </g>
      {/* Sparkles */}
      <path d="M448 60l5 12 12 5-12 5-5 12-5-12-12-5 12-5z" className="fill-amber-300" />
      <path d="M196 70l3 8 8 3-8 3-3 8-3-8-8-3 8-3z" className="fill-brand-300" />
    </Svg>
  )
}

/** An archive opening in the cloud, its files lifting out. */
export function ArchiveIllustration({ label, className }: IllustrationProps) {
  return (
    <Svg label={label} className={className} viewBox="0 0 240 180">
      <circle cx="120" cy="96" r="76" className="fill-violet-50 dark:fill-violet-950/50" />
      <g>
        <rect x="70" y="92" width="100" height="70" rx="10" className="fill-violet-300 dark:fill-violet-500" />
        <path d="M62 84a8 8 0 0 1 8-8h100a8 8 0 0 1 8 8v14H62z" className="fill-violet-400 dark:fill-violet-400" />
        <Zipper x={113} y={80} teeth={7} scale={1.2} className="fill-violet-700 dark:fill-violet-100" />
      </g>
      <g transform="rotate(-12 64 44)">
        <rect x="44" y="22" width="40" height="48" rx="6" className="fill-white stroke-slate-200 dark:fill-slate-800 dark:stroke-slate-600" strokeWidth="2" />
        <TextLine x={52} y={34} width={24} className="fill-slate-300 dark:fill-slate-500" />
        <TextLine x={52} y={48} width={18} className="fill-slate-200 dark:fill-slate-600" />
      </g>
      <g>
        <rect x="100" y="10" width="40" height="48" rx="6" className="fill-white stroke-slate-200 dark:fill-slate-800 dark:stroke-slate-600" strokeWidth="2" />
        <path d="M110 46l8-10 6 6 4-4 8 8z" className="fill-emerald-400" />
      </g>
      <g transform="rotate(12 176 44)">
        <rect x="156" y="22" width="40" height="48" rx="6" className="fill-white stroke-slate-200 dark:fill-slate-800 dark:stroke-slate-600" strokeWidth="2" />
        <path d="M170 36v16l12-8z" className="fill-rose-400" />
      </g>
    </Svg>
  )
}

/** A magnifier over a list of files. */
export function SearchIllustration({ label, className }: IllustrationProps) {
  return (
    <Svg label={label} className={className} viewBox="0 0 240 180">
      <circle cx="120" cy="90" r="76" className="fill-sky-50 dark:fill-sky-950/50" />
      <rect x="46" y="34" width="130" height="116" rx="14" className="fill-white stroke-slate-200 dark:fill-slate-800 dark:stroke-slate-600" strokeWidth="2" />
      {[0, 1, 2, 3].map((row) => (
        <g key={row}>
          <rect x="60" y={50 + row * 24} width="14" height="14" rx="4" className={row === 1 ? 'fill-brand-500' : 'fill-slate-200 dark:fill-slate-600'} />
          <TextLine x={82} y={53 + row * 24} width={row === 1 ? 72 : 56 - row * 6} className={row === 1 ? 'fill-brand-300 dark:fill-brand-400' : 'fill-slate-200 dark:fill-slate-600'} />
        </g>
      ))}
      <circle cx="160" cy="112" r="28" className="fill-white/60 stroke-brand-600 dark:fill-slate-900/60 dark:stroke-brand-300" strokeWidth="8" />
      <path d="M180 132l22 22" className="stroke-brand-600 dark:stroke-brand-300" strokeWidth="12" strokeLinecap="round" />
    </Svg>
  )
}

/** A person's card with a key: an account. */
export function AccountIllustration({ label, className }: IllustrationProps) {
  return (
    <Svg label={label} className={className} viewBox="0 0 240 180">
      <circle cx="120" cy="90" r="76" className="fill-brand-50 dark:fill-brand-900/40" />
      <rect x="50" y="40" width="140" height="100" rx="16" className="fill-white stroke-slate-200 dark:fill-slate-800 dark:stroke-slate-600" strokeWidth="2" />
      <circle cx="90" cy="82" r="18" className="fill-brand-200 dark:fill-brand-700" />
      <path d="M62 126a28 22 0 0 1 56 0z" className="fill-brand-200 dark:fill-brand-700" />
      <TextLine x={124} y={70} width={50} className="fill-slate-300 dark:fill-slate-500" />
      <TextLine x={124} y={86} width={36} className="fill-slate-200 dark:fill-slate-600" />
      <rect x="124" y="104" width="48" height="18" rx="9" className="fill-amber-300 dark:fill-amber-400" />
      <g transform="translate(166 126) rotate(-30)">
        <circle r="14" className="fill-white stroke-amber-500" strokeWidth="6" />
        <path d="M14 0h30m-10 0v10m-10-10v8" className="stroke-amber-500" strokeWidth="6" strokeLinecap="round" />
      </g>
    </Svg>
  )
}

/** Files lifting into a cloud. */
export function UploadIllustration({ label, className }: IllustrationProps) {
  return (
    <Svg label={label} className={className} viewBox="0 0 240 180">
      <circle cx="120" cy="90" r="76" className="fill-sky-50 dark:fill-sky-950/50" />
      <path d="M80 92a26 26 0 0 1 2.4-51.8A36 36 0 0 1 150 34a30 30 0 0 1 8 58z" className="fill-brand-500 dark:fill-brand-400" />
      <path d="M120 80V44m-13 13 13-13 13 13" stroke="#fff" strokeWidth="6" fill="none" strokeLinecap="round" strokeLinejoin="round" />
      <Folder x={64} y={112} scale={0.9} className="fill-amber-300 dark:fill-amber-400" />
      <rect x="124" y="110" width="36" height="44" rx="6" className="fill-white stroke-slate-200 dark:fill-slate-800 dark:stroke-slate-600" strokeWidth="2" />
      <TextLine x={131} y={122} width={22} className="fill-slate-300 dark:fill-slate-500" />
      <TextLine x={131} y={136} width={16} className="fill-slate-200 dark:fill-slate-600" />
      <rect x="168" y="110" width="40" height="44" rx="6" className="fill-rose-300 dark:fill-rose-400/80" />
      <path d="M182 122v20l14-10z" fill="#fff" />
    </Svg>
  )
}

/** A link chip dropping into the cloud. */
export function LinkIllustration({ label, className }: IllustrationProps) {
  return (
    <Svg label={label} className={className} viewBox="0 0 240 180">
      <circle cx="120" cy="90" r="76" className="fill-indigo-50 dark:fill-indigo-950/50" />
      <rect x="28" y="118" width="128" height="40" rx="20" className="fill-white stroke-slate-200 dark:fill-slate-800 dark:stroke-slate-600" strokeWidth="2" />
      <g className="stroke-brand-600 dark:stroke-brand-300" strokeWidth="4" fill="none" strokeLinecap="round">
        <path d="M54 132h-4a6 6 0 0 0 0 12h4M62 132h4a6 6 0 0 1 0 12h-4M52 138h12" />
      </g>
      <TextLine x={80} y={134} width={62} className="fill-slate-300 dark:fill-slate-500" />
      <path d="M140 92a26 26 0 0 1 2.4-51.8A36 36 0 0 1 210 34a30 30 0 0 1 8 58z" className="fill-brand-500 dark:fill-brand-400" />
      <path d="M180 46v34m-13-13 13 13 13-13" stroke="#fff" strokeWidth="6" fill="none" strokeLinecap="round" strokeLinejoin="round" />
      <path d="M150 120c14-6 18-14 22-24" className="stroke-brand-400" strokeWidth="3" strokeDasharray="2 8" strokeLinecap="round" fill="none" />
    </Svg>
  )
}

/** A phone and a laptop, each with the app's icon. */
export function DevicesIllustration({ label, className }: IllustrationProps) {
  return (
    <Svg label={label} className={className} viewBox="0 0 240 180">
      <circle cx="120" cy="90" r="76" className="fill-emerald-50 dark:fill-emerald-950/40" />
      <rect x="40" y="44" width="124" height="82" rx="10" className="fill-white stroke-slate-300 dark:fill-slate-800 dark:stroke-slate-600" strokeWidth="3" />
      <path d="M26 134h152l-8 10H34z" className="fill-slate-300 dark:fill-slate-600" />
      <AppMark x={84} y={66} size={36} />
      <rect x="160" y="64" width="50" height="90" rx="10" className="fill-white stroke-slate-300 dark:fill-slate-800 dark:stroke-slate-600" strokeWidth="3" />
      <AppMark x={173} y={92} size={24} />
      <path d="M179 144h12" className="stroke-slate-300 dark:stroke-slate-600" strokeWidth="3" strokeLinecap="round" />
    </Svg>
  )
}

/** A server with a shield: your data on your own machine. */
export function ServerIllustration({ label, className }: IllustrationProps) {
  return (
    <Svg label={label} className={className} viewBox="0 0 320 240">
      <circle cx="160" cy="120" r="104" className="fill-brand-50 dark:fill-brand-900/40" />
      {[0, 1, 2].map((row) => (
        <g key={row}>
          <rect x="70" y={50 + row * 50} width="150" height="40" rx="10" className="fill-white stroke-slate-200 dark:fill-slate-800 dark:stroke-slate-600" strokeWidth="2" />
          <circle cx="92" cy={70 + row * 50} r="5" className={row === 1 ? 'fill-amber-400' : 'fill-emerald-400'} />
          <TextLine x={108} y={66 + row * 50} width={60} className="fill-slate-200 dark:fill-slate-600" />
          <path d={`M186 ${62 + row * 50}v16m10-16v16m10-16v16`} className="stroke-slate-300 dark:stroke-slate-500" strokeWidth="3" strokeLinecap="round" />
        </g>
      ))}
      <g transform="translate(206 120)">
        <path d="M30 0l30 10v22c0 20-13 34-30 42C13 66 0 52 0 32V10z" className="fill-brand-600 dark:fill-brand-400" />
        <path d="M18 36l9 9 16-18" stroke="#fff" strokeWidth="6" fill="none" strokeLinecap="round" strokeLinejoin="round" />
      </g>
    </Svg>
  )
}

/** The Cumulus mark drawn inside another drawing (same shapes as components/logo.tsx). */
function AppMark({ x, y, size }: { x: number; y: number; size: number }) {
  const scale = size / 64
  return (
    <g transform={`translate(${x} ${y}) scale(${scale})`}>
      <rect width="64" height="64" rx="16" className="fill-brand-600" />
      <path d="M20 40a8 8 0 0 1 .9-15.95A11 11 0 0 1 42 22.5a9 9 0 0 1 2 17.5z" fill="#fff" />
      <path d="M32 29v14m-5-5 5 5 5-5" className="stroke-brand-700" strokeWidth="3" fill="none" strokeLinecap="round" strokeLinejoin="round" />
    </g>
  )
}
