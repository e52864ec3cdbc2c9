import type * as DropdownMenu from '@radix-ui/react-dropdown-menu'
import type { ButtonHTMLAttributes, ReactNode } from 'react'

/** Radix DropdownMenu's parts, handed to `items` once its chunk has arrived (a type only: importing it loads nothing). */
export type MenuKit = typeof DropdownMenu

/** A menu whose Radix DropdownMenu loads on first use (deferred-menu.tsx). */
export interface DeferredMenuProps {
  /** The trigger button's attributes: class, test id, accessible name, tab index, click handlers. */
  trigger: ButtonHTMLAttributes<HTMLButtonElement> & { 'data-testid'?: string }
  /** What the trigger shows. */
  children: ReactNode
  /** The menu's items (labels, groups, separators), built from Radix's parts; called only while the menu is open. */
  items(Menu: MenuKit): ReactNode
  /** The content's placement, class and close-focus handling. */
  content?: Pick<DropdownMenu.DropdownMenuContentProps, 'align' | 'sideOffset' | 'className' | 'onCloseAutoFocus' | 'onEscapeKeyDown' | 'onPointerDownOutside'>
  /** Controlled opening (a row's menu, which its row also opens); the menu keeps its own state without it. */
  open?: boolean
  onOpenChange?(open: boolean): void
  modal?: boolean
}
