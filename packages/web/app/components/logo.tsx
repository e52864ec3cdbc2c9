/** The Cumulus mark: a cloud over a download arrow. Decorative; callers label the link around it. */
export function Logo({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 64 64" className={className} aria-hidden="true">
      <defs>
        <linearGradient id="cumulus-logo" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#4f8cff" />
          <stop offset="1" stopColor="#2447c7" />
        </linearGradient>
      </defs>
      <rect width="64" height="64" rx="16" fill="url(#cumulus-logo)" />
      <path d="M20 40a8 8 0 0 1 .9-15.95A11 11 0 0 1 42 22.5a9 9 0 0 1 2 17.5z" fill="#fff" opacity=".95" />
      <path d="M32 29v14m-5-5 5 5 5-5" stroke="#2447c7" strokeWidth="3" fill="none" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  )
}
