import type { SharePreview } from '@cumulus/protocol'
import { pluralForm } from '../drive/use-plural'
import type { Messages } from '../locales/shape'

/** The page's title and link-preview description, before the share is opened. */
export interface ShareMetaTexts {
  title: string
  description: string
}

const fill = (template: string, values: Record<string, string>) => template.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, key: string) => values[key] ?? whole)

/**
 * What chat apps show for a share link (Open Graph) and the page's title, from what the server
 * may tell before anyone opens the share (`SharePreview`): a public share names its owner, title
 * and item count; one behind a pass code only its owner (the code guards the names too); a share
 * that cannot be opened says so; no preview at all (the server gave no lookup) stays generic.
 */
export function shareMetaTexts(texts: Messages['sharePage']['meta'], preview: SharePreview | null | undefined, locale: string): ShareMetaTexts {
  const generic = { title: texts.genericTitle, description: texts.genericDescription }
  if (preview === undefined) return generic
  if (preview === null || (preview.status !== 'OK' && preview.status !== 'PASS_CODE_EMPTY' && preview.status !== 'PASS_CODE_ERROR')) {
    return { title: texts.unavailableTitle, description: texts.genericDescription }
  }
  const owner = preview.ownerName
  if (preview.passCodeRequired || preview.title === '') {
    return owner ? { title: fill(texts.lockedTitle, { owner }), description: texts.lockedDescription } : generic
  }
  const count = preview.fileNum.toLocaleString(locale)
  if (!owner) return { title: preview.title, description: texts.genericDescription }
  return {
    title: fill(texts.sharedTitle, { owner, title: preview.title }),
    description: fill(texts.sharedDescription[pluralForm(locale, preview.fileNum)], { owner, count }),
  }
}
