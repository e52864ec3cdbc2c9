import type { ButtonHTMLAttributes, ReactNode } from 'react'

/** One choice of a header menu. */
export interface RadioMenuOption {
  value: string
  label: string
  /** The option's language, when it is named in it (the language menu). */
  lang?: string
}

/** A header menu choosing one value (language, colour mode): what the trigger shows and what the menu lists. */
export interface RadioMenuProps {
  /** The trigger button's attributes: class, test id, accessible name, disabled. */
  trigger: ButtonHTMLAttributes<HTMLButtonElement> & { 'data-testid'?: string }
  /** What the trigger shows. */
  children: ReactNode
  /** The menu's heading. */
  label: string
  value: string
  options: readonly RadioMenuOption[]
  onValueChange(value: string): void
}

/** How the menu was asked to open before Radix had arrived: by the pointer or by the keyboard. */
export type MenuOpening = 'pointer' | 'keyboard'
