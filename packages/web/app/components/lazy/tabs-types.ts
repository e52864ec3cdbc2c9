import type { ReactNode } from 'react'

/** One tab: its trigger's label and its panel. */
export interface TabItem {
  value: string
  label: ReactNode
  panel: ReactNode
  /** Fetches what the panel needs (a lazily loaded form) before the tab opens, so it opens complete. */
  preload?: () => Promise<unknown>
}

/** A controlled tab set (Radix Tabs' automatic activation, horizontal, left to right). */
export interface TabsProps {
  value: string
  onValueChange(value: string): void
  tabs: readonly TabItem[]
  /** The tab list's accessible name. */
  label: string
  listClassName: string
  triggerClassName: string
  panelClassName: string
}
