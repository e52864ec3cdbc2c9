/** The sign-in / create-account switch: a segmented control. */
export const segmentedListClass = 'grid grid-cols-2 gap-1 rounded-xl bg-slate-100 p-1 dark:bg-slate-800'
export const segmentedTriggerClass =
  'h-10 rounded-lg text-sm font-semibold text-slate-600 transition-colors hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-500 data-[state=active]:bg-white data-[state=active]:text-slate-900 data-[state=active]:shadow-sm dark:text-slate-300 dark:hover:text-white dark:data-[state=active]:bg-slate-950 dark:data-[state=active]:text-white'

/** The password / code switch inside sign-in: underlined tabs, lighter than the switch above. */
export const underlineListClass = 'flex gap-6 border-b border-slate-200 dark:border-slate-700'
export const underlineTriggerClass =
  '-mb-px border-b-2 border-transparent pb-2.5 text-sm font-medium text-slate-600 transition-colors hover:text-slate-900 focus-visible:rounded focus-visible:outline-2 focus-visible:outline-brand-500 data-[state=active]:border-brand-600 data-[state=active]:text-brand-700 dark:text-slate-300 dark:hover:text-white dark:data-[state=active]:border-brand-300 dark:data-[state=active]:text-brand-300'
