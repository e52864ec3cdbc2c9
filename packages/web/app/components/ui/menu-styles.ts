/** Shared classes of the header's menus (language, theme, account). */
export const triggerClass =
  'inline-flex h-9 items-center gap-1.5 rounded-lg px-2.5 text-sm font-medium text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500 disabled:opacity-50 dark:text-slate-200 dark:hover:bg-slate-800'

export const menuContentClass =
  'z-50 min-w-44 rounded-xl border border-slate-200 bg-white p-1 text-slate-900 shadow-lg data-[state=open]:animate-in dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100'

export const menuItemClass =
  'relative flex cursor-default select-none items-center rounded-lg py-2 pl-7 pr-3 text-sm outline-none data-[highlighted]:bg-slate-100 data-[disabled]:opacity-50 dark:data-[highlighted]:bg-slate-800'
