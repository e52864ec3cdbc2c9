import { type CreateOfflineReply, DOWNLOAD_FOLDER_NAMES, type DriveFile, type DriveResource, FOLDER_KIND, RESOURCE_STATUS_OK } from '@cumulus/protocol'
import { type DragEvent, type FormEvent, useEffect, useId, useRef, useState } from 'react'
import { Alert } from '../components/ui/alert'
import { Button } from '../components/ui/button'
import { Spinner } from '../components/ui/spinner'
import type { DriveApi } from '../drive/drive-api'
import { FileName } from '../drive/file-name'
import { FolderPickerDialog } from '../drive/folder-picker-dialog'
import type { PathStep } from '../drive/folder-path'
import { formatBytes } from '../drive/format'
import { FileKindIcon, kindFromName } from '../drive/icons'
import { usePlural } from '../drive/use-plural'
import { useDescribeError } from '../drive/use-error-text'
import { useLocale, useT } from '../i18n/use-locale'
import { checkDownloadLink } from '../routes/thunder-link'
import { useReasonText } from './reason-text'
import { bytesOf, chosenFiles, hasTree, leavesOf, selectionState, toggled } from './resource-selection'

/** The most links one add takes (one create call each). */
export const MAX_LINKS_PER_ADD = 50
/** The most links the server previews in one call (the drive's PREVIEW_MAX_LINKS); more go in several calls. */
export const PREVIEW_LINKS_PER_CALL = 20
/** The most bad lines named at once; the rest are counted. */
export const MAX_BAD_LINES_SHOWN = 5

const TORRENT_ACCEPT = '.torrent,application/x-bittorrent'

const isTorrentFile = (file: File) => /\.torrent$/i.test(file.name) || file.type === 'application/x-bittorrent'

interface PreviewItem {
  key: string
  /** The link as the user gave it, or the torrent file's id in the drive. */
  source: { kind: 'link'; url: string } | { kind: 'torrent'; fileId: string }
  resource: DriveResource
  /** A resource without a tree: whether to add it. */
  included: boolean
  /** A resource with a tree: the chosen files' indexes. */
  selected: Set<string>
}

export interface AddResult {
  reply: CreateOfflineReply
  name: string
}

export interface AddDownloadProps {
  api: DriveApi
  /** A link kept on this device before sign-in, put in the box. */
  initialLink?: string | null
  /** The folder the downloads go to, named by the page's address (the drive's "+" menu); the download folder without it. */
  initialFolder?: string | null
  /** After each successful add (the task list takes its task). */
  onAdded(results: readonly AddResult[]): void
  notify(text: string, tone: 'success' | 'error'): void
}

type Step = { type: 'edit' } | { type: 'previewing' } | { type: 'preview'; items: PreviewItem[] } | { type: 'adding'; items: PreviewItem[] }

/** The download folder of the account (folder_type DOWNLOAD in the root), or null until the server makes it. */
async function findDownloadFolder(api: DriveApi): Promise<DriveFile | null> {
  const page = await api.list({ parentId: '', limit: 500, filters: { kind: { eq: FOLDER_KIND }, trashed: { eq: false } } })
  return page.files.find((file) => file.folder_type === 'DOWNLOAD') ?? null
}

/**
 * Adding offline downloads: links (one per line) and a `.torrent` file (chosen or dropped; it is
 * uploaded to the download folder, then previewed by its id). "Preview" shows what each would
 * download, a torrent's files to choose from, and where it lands; "Add" creates the tasks.
 */
export function AddDownload({ api, initialLink = null, initialFolder = null, onAdded, notify }: AddDownloadProps) {
  const { t } = useT()
  const tp = usePlural()
  const locale = useLocale()
  const describe = useDescribeError()
  const ids = { heading: useId(), links: useId(), hint: useId(), error: useId(), target: useId() }
  const textarea = useRef<HTMLTextAreaElement>(null)
  const fileInput = useRef<HTMLInputElement>(null)
  const previewHeading = useRef<HTMLHeadingElement>(null)
  const revealPreview = useRef(false)
  const [links, setLinks] = useState(initialLink ?? '')
  const [torrent, setTorrent] = useState<File | null>(null)
  const uploaded = useRef<{ file: File; id: string } | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [step, setStep] = useState<Step>({ type: 'edit' })
  const [downloadFolder, setDownloadFolder] = useState<DriveFile | null>(null)
  const [target, setTarget] = useState<PathStep | null>(null)
  const [picking, setPicking] = useState(false)
  const [dragging, setDragging] = useState(false)

  useEffect(() => {
    let live = true
    findDownloadFolder(api).then(
      (folder) => live && setDownloadFolder(folder),
      () => undefined,
    )
    return () => {
      live = false
    }
  }, [api])

  useEffect(() => {
    if (initialLink) setLinks(initialLink)
  }, [initialLink])

  // A folder named by the address becomes the target once it is known to be one of the user's
  // folders, not in the trash; anything else (gone, a file, another account's) leaves the default.
  // The user came to add links: the box takes the focus.
  useEffect(() => {
    if (!initialFolder) return
    let live = true
    api.get(initialFolder).then(
      (file) => {
        if (!live || file.kind !== FOLDER_KIND || file.trashed) return
        setTarget((current) => current ?? { id: file.id, name: file.name })
      },
      () => undefined,
    )
    textarea.current?.focus()
    return () => {
      live = false
    }
  }, [api, initialFolder])

  // The Preview button that had the focus is gone with the form: the focus goes to the preview's
  // heading, which is scrolled to below the sticky site header (its scroll margin), not under it.
  useEffect(() => {
    if (step.type !== 'preview' || !revealPreview.current) return
    revealPreview.current = false
    const heading = previewHeading.current
    if (!heading) return
    heading.focus({ preventScroll: true })
    const reduceMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false
    heading.scrollIntoView({ block: 'start', behavior: reduceMotion ? 'auto' : 'smooth' })
  }, [step])

  const targetName = target ? target.name : (downloadFolder?.name ?? DOWNLOAD_FOLDER_NAMES[locale])

  function chooseTorrent(file: File | undefined) {
    if (!file) return
    if (!isTorrentFile(file)) {
      setError(t('drive.offline.form.torrentOnly'))
      return
    }
    setError(null)
    setTorrent(file)
  }

  function onDrop(event: DragEvent<HTMLElement>) {
    if (!event.dataTransfer.types.includes('Files')) return
    event.preventDefault()
    setDragging(false)
    chooseTorrent(event.dataTransfer.files[0])
  }

  /**
   * The lines as links, or what is wrong with them: every bad line, so that fixing one does not
   * reveal the next (one per row of the text; past `MAX_BAD_LINES_SHOWN` they are counted).
   */
  function readLinks(): { ok: true; links: string[] } | { ok: false; text: string } {
    const lines = links.split(/\r?\n/).map((line, index) => ({ line: line.trim(), number: index + 1 }))
    const filled = lines.filter((entry) => entry.line !== '')
    if (filled.length > MAX_LINKS_PER_ADD) return { ok: false, text: t('drive.offline.form.tooMany', { max: MAX_LINKS_PER_ADD }) }
    const checked: string[] = []
    const bad: string[] = []
    for (const entry of filled) {
      const check = checkDownloadLink(entry.line)
      if (!check.ok) bad.push(t('drive.offline.form.badLine', { line: entry.number, reason: t(`pages.thunder.box.errors.${check.reason}`) }))
      else if (!checked.includes(check.link)) checked.push(check.link)
    }
    if (bad.length === 0) return { ok: true, links: checked }
    const shown = bad.slice(0, MAX_BAD_LINES_SHOWN)
    if (bad.length > shown.length) shown.push(tp('drive.offline.form.moreBadLines', bad.length - shown.length))
    return { ok: false, text: shown.join('\n') }
  }

  async function uploadTorrent(file: File): Promise<string> {
    if (uploaded.current?.file === file) return uploaded.current.id
    const parentId = downloadFolder?.id ?? ''
    const done = await api.upload({ file, name: file.name, parentId }).promise
    uploaded.current = { file, id: done.id }
    return done.id
  }

  async function preview(event: FormEvent) {
    event.preventDefault()
    const read = readLinks()
    if (!read.ok) {
      setError(read.text)
      textarea.current?.focus()
      return
    }
    if (read.links.length === 0 && !torrent) {
      setError(t('drive.offline.form.empty'))
      textarea.current?.focus()
      return
    }
    setError(null)
    setStep({ type: 'previewing' })
    try {
      const items: PreviewItem[] = []
      if (read.links.length > 0) {
        // One call after another, so the server's origins are not asked about 50 links at once.
        const resources: DriveResource[] = []
        for (let start = 0; start < read.links.length; start += PREVIEW_LINKS_PER_CALL) {
          resources.push(...(await api.previewResources(read.links.slice(start, start + PREVIEW_LINKS_PER_CALL))))
        }
        read.links.forEach((url, index) => {
          const resource = resources.find((r) => r.meta?.url === url) ?? resources[index]
          if (resource) items.push(itemOf(`link:${index}`, { kind: 'link', url }, resource))
        })
      }
      if (torrent) {
        const fileId = await uploadTorrent(torrent)
        const [resource] = await api.previewResources({ torrentFileId: fileId })
        if (resource) items.push(itemOf(`torrent:${fileId}`, { kind: 'torrent', fileId }, resource))
      }
      revealPreview.current = true
      setStep({ type: 'preview', items })
    } catch (err) {
      setStep({ type: 'edit' })
      setError(`${t('drive.offline.preview.failed')} ${await describe(err)}`)
    }
  }

  function update(key: string, change: (item: PreviewItem) => PreviewItem) {
    setStep((current) => (current.type === 'preview' ? { type: 'preview', items: current.items.map((item) => (item.key === key ? change(item) : item)) } : current))
  }

  const items = step.type === 'preview' || step.type === 'adding' ? step.items : []
  const addable = items.filter((item) => isOk(item.resource) && (hasTree(item.resource) ? item.selected.size > 0 : item.included))

  async function add() {
    if (step.type !== 'preview' || addable.length === 0) return
    setStep({ type: 'adding', items })
    const results: AddResult[] = []
    const failed: PreviewItem[] = []
    for (const item of addable) {
      const fileIndexes = hasTree(item.resource) ? chosenFiles(item.resource, item.selected).indexes : undefined
      try {
        const reply = await api.createOfflineTask({
          url: item.source.kind === 'link' ? item.source.url : '',
          ...(item.source.kind === 'torrent' ? { torrentFileId: item.source.fileId } : {}),
          ...(fileIndexes ? { fileIndexes } : {}),
          ...(target ? { parentId: target.id } : {}),
        })
        results.push({ reply, name: item.resource.name })
      } catch (err) {
        failed.push(item)
        notify(t('drive.offline.addFailed', { name: item.resource.name, reason: await describe(err) }), 'error')
      }
    }
    if (results.length > 0) {
      onAdded(results)
      const instant = results.filter((result) => result.reply.file !== null && (result.reply.task === null || result.reply.task.phase === 'PHASE_TYPE_COMPLETE'))
      notify(tp('drive.offline.added', results.length), 'success')
      // One toast for all of them: one each stacked up over half a phone's screen.
      const [first] = instant
      if (first) notify(tp('drive.offline.instant', instant.length, { name: first.reply.file?.name ?? first.name }), 'success')
    }
    if (failed.length === 0) {
      setLinks('')
      setTorrent(null)
      uploaded.current = null
      setStep({ type: 'edit' })
    } else {
      setStep({ type: 'preview', items: items.filter((item) => failed.includes(item) || !addable.includes(item)) })
    }
  }

  const busy = step.type === 'previewing' || step.type === 'adding'
  return (
    <section
      aria-labelledby={ids.heading}
      data-testid="add-download"
      onDragOver={(event) => {
        if (!event.dataTransfer.types.includes('Files') || busy || step.type !== 'edit') return
        event.preventDefault()
        setDragging(true)
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
      className={`rounded-3xl border bg-white/90 p-5 shadow-xl shadow-brand-900/5 backdrop-blur sm:p-7 dark:bg-slate-900/80 dark:shadow-black/30 ${dragging ? 'border-brand-500 ring-2 ring-brand-500/40' : 'border-slate-200 dark:border-slate-700/80'}`}
    >
      <h2 id={ids.heading} className="text-lg font-semibold text-slate-900 dark:text-white">
        {t('drive.offline.form.heading')}
      </h2>
      {step.type === 'edit' || step.type === 'previewing' ? (
        <form noValidate onSubmit={(event) => void preview(event)} className="mt-4 space-y-3">
          <div>
            {target ? (
              <p id={ids.target} className="mb-3 flex min-w-0 items-center gap-1.5 text-sm text-slate-700 dark:text-slate-200" data-testid="form-target-folder">
                <span className="shrink-0">{t('drive.offline.target.label')}</span>
                <FileKindIcon kind="folder" className="size-4 shrink-0" />
                <span className="min-w-0 font-medium">
                  <FileName name={target.name} />
                </span>
              </p>
            ) : null}
            <label htmlFor={ids.links} className="mb-1.5 block text-sm font-medium text-slate-700 dark:text-slate-200">
              {t('drive.offline.form.linksLabel')}
            </label>
            <textarea
              ref={textarea}
              id={ids.links}
              name="links"
              rows={4}
              value={links}
              disabled={busy}
              onChange={(event) => {
                setLinks(event.target.value)
                if (error) setError(null)
              }}
              placeholder={t('drive.offline.form.placeholder')}
              autoComplete="off"
              autoCapitalize="off"
              autoCorrect="off"
              spellCheck={false}
              aria-invalid={error ? true : undefined}
              aria-describedby={[error ? ids.error : null, ids.hint, target ? ids.target : null].filter(Boolean).join(' ')}
              className="block w-full resize-y rounded-xl border border-slate-300 bg-white px-3.5 py-2.5 font-mono text-sm text-slate-900 placeholder:text-slate-400 focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none aria-[invalid=true]:border-red-500 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100"
            />
            <p id={ids.hint} className="mt-1.5 text-xs text-slate-500 dark:text-slate-400">
              {t('drive.offline.form.linksHint')}
            </p>
            {initialLink && links === initialLink ? <p className="mt-1.5 text-sm text-slate-600 dark:text-slate-300">{t('drive.offline.form.restored')}</p> : null}
            {error ? (
              <p id={ids.error} role="alert" className="mt-1.5 text-sm whitespace-pre-line text-red-700 dark:text-red-300">
                {error}
              </p>
            ) : null}
          </div>
          <div className="flex flex-wrap items-center gap-x-3 gap-y-2 rounded-xl border border-dashed border-slate-300 px-3 py-2.5 dark:border-slate-600">
            {torrent ? (
              <>
                <FileKindIcon kind="other" className="size-5 shrink-0" />
                <span className="min-w-0 flex-1 text-sm text-slate-800 dark:text-slate-100" data-testid="torrent-chosen">
                  {t('drive.offline.form.torrentChosen', { name: torrent.name })}
                </span>
                <Button variant="ghost" className="h-9 px-3" disabled={busy} onClick={() => setTorrent(null)}>
                  {t('drive.offline.form.torrentRemove')}
                </Button>
              </>
            ) : (
              <>
                <Button variant="secondary" className="h-9 px-3" disabled={busy} onClick={() => fileInput.current?.click()}>
                  {t('drive.offline.form.torrentPick')}
                </Button>
                <span className="text-sm text-slate-500 dark:text-slate-400">{t('drive.offline.form.torrentDrop')}</span>
              </>
            )}
            <input
              ref={fileInput}
              type="file"
              accept={TORRENT_ACCEPT}
              hidden
              data-testid="torrent-input"
              onChange={(event) => {
                chooseTorrent(event.target.files?.[0])
                event.target.value = ''
              }}
            />
          </div>
          <Button type="submit" loading={step.type === 'previewing'}>
            {t('drive.offline.form.preview')}
          </Button>
          {step.type === 'previewing' ? (
            <p role="status" className="text-sm text-slate-600 dark:text-slate-300">
              {torrent && uploaded.current?.file !== torrent ? t('drive.offline.form.torrentUploading') : t('drive.offline.preview.loading')}
            </p>
          ) : null}
        </form>
      ) : (
        <div className="mt-4 space-y-4" data-testid="preview">
          {/* scroll-mt-28 clears the sticky site header, two rows high on phones. */}
          <h3 ref={previewHeading} tabIndex={-1} className="scroll-mt-28 text-sm font-semibold text-slate-700 outline-none dark:text-slate-200">
            {t('drive.offline.preview.heading')}
          </h3>
          <ul className="space-y-3">
            {items.map((item) => (
              <PreviewEntry key={item.key} item={item} disabled={busy} onChange={(change) => update(item.key, change)} />
            ))}
          </ul>
          {addable.length === 0 ? (
            <Alert tone="warning">{items.some((item) => isOk(item.resource)) ? t('drive.offline.preview.noneSelected') : tp('drive.offline.preview.nothingToAdd', items.length)}</Alert>
          ) : null}
          <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-slate-700 dark:text-slate-200">
            <span>{t('drive.offline.target.label')}</span>
            <span className="inline-flex min-w-0 items-center gap-1.5 font-medium" data-testid="target-folder">
              <FileKindIcon kind="folder" className="size-4 shrink-0" />
              <FileName name={targetName} />
            </span>
            <Button variant="ghost" className="h-9 px-3" disabled={busy} onClick={() => setPicking(true)}>
              {t('drive.offline.target.change')}
            </Button>
          </div>
          <div className="flex flex-col-reverse gap-2 sm:flex-row">
            <Button variant="secondary" disabled={busy} onClick={() => setStep({ type: 'edit' })}>
              {t('drive.offline.preview.edit')}
            </Button>
            <Button loading={step.type === 'adding'} disabled={addable.length === 0} onClick={() => void add()}>
              {addable.length === 0 ? t('drive.offline.addNone') : tp('drive.offline.add', addable.length)}
            </Button>
          </div>
        </div>
      )}
      <FolderPickerDialog
        api={api}
        open={picking}
        onOpenChange={setPicking}
        mode="choose"
        items={[]}
        startPath={[{ id: '', name: t('drive.nav.myDrive') }]}
        onPick={async (folder) => setTarget(folder)}
      />
    </section>
  )
}

const isOk = (resource: DriveResource) => (resource.meta?.status ?? RESOURCE_STATUS_OK) === RESOURCE_STATUS_OK

function itemOf(key: string, source: PreviewItem['source'], resource: DriveResource): PreviewItem {
  // Every file of a torrent is chosen at first.
  return { key, source, resource, included: true, selected: new Set(leavesOf(resource).map((leaf) => leaf.id)) }
}

function PreviewEntry({ item, disabled, onChange }: { item: PreviewItem; disabled: boolean; onChange(change: (item: PreviewItem) => PreviewItem): void }) {
  const { t } = useT()
  const tp = usePlural()
  const locale = useLocale()
  const reasonText = useReasonText()
  const checkboxId = useId()
  const { resource } = item
  const ok = isOk(resource)
  const tree = hasTree(resource)
  const bytes = bytesOf(resource)
  const fileCount = tree ? leavesOf(resource).length : Math.max(1, Number(resource.file_count) || 1)
  const status = resource.meta?.status ?? RESOURCE_STATUS_OK
  const refusal = ok ? null : (reasonText(status) ?? t('drive.offline.preview.unknownReason', { reason: status }))
  const chosen = tree ? chosenFiles(resource, item.selected) : null

  return (
    <li className="rounded-2xl border border-slate-200 p-3 dark:border-slate-700" data-testid="preview-item" data-name={resource.name}>
      <div className="flex items-start gap-3">
        {ok && !tree ? (
          <input
            id={checkboxId}
            type="checkbox"
            className="mt-1 size-4 shrink-0 accent-brand-600"
            checked={item.included}
            disabled={disabled}
            onChange={(event) => onChange((current) => ({ ...current, included: event.target.checked }))}
            aria-label={t('drive.offline.preview.include', { name: resource.name })}
          />
        ) : null}
        <FileKindIcon kind={tree || resource.is_dir ? 'folder' : kindFromName(resource.name)} className="size-6 shrink-0" />
        <div className="min-w-0 flex-1">
          <p className="text-sm font-medium text-slate-900 dark:text-white">
            <FileName name={resource.name} />
          </p>
          <p className="mt-0.5 flex flex-wrap gap-x-3 text-xs text-slate-600 dark:text-slate-400">
            <span>{bytes > 0 ? formatBytes(bytes, locale) : t('drive.offline.preview.sizeUnknown')}</span>
            <span>{tp('drive.offline.preview.fileCount', fileCount)}</span>
            {ok ? <span className="text-emerald-700 dark:text-emerald-300">{t('drive.offline.preview.ready')}</span> : null}
          </p>
          {refusal ? (
            <p className="mt-1 text-sm text-red-700 dark:text-red-300" data-testid="preview-refusal">
              {refusal}
            </p>
          ) : null}
        </div>
      </div>
      {ok && tree && chosen ? (
        <fieldset className="mt-3" disabled={disabled}>
          <legend className="sr-only">{t('drive.offline.preview.treeLabel', { name: resource.name })}</legend>
          <TreeCheckbox
            node={resource}
            selected={item.selected}
            label={t('drive.offline.preview.selectAll')}
            onToggle={(node, on) => onChange((current) => ({ ...current, selected: toggled(current.selected, node, on) }))}
          />
          <div className="mt-1 max-h-80 overflow-auto rounded-xl bg-slate-50 px-2 py-1 dark:bg-slate-950/60">
            <Tree nodes={resource.dir?.resources ?? []} selected={item.selected} onToggle={(node, on) => onChange((current) => ({ ...current, selected: toggled(current.selected, node, on) }))} />
          </div>
          <p className="mt-2 text-xs text-slate-600 dark:text-slate-400" aria-live="polite" data-testid="preview-selected">
            {tp('drive.offline.preview.selected', chosen.indexes.length, { size: formatBytes(chosen.bytes, locale) })}
          </p>
        </fieldset>
      ) : null}
    </li>
  )
}

function Tree({ nodes, selected, onToggle }: { nodes: readonly DriveResource[]; selected: ReadonlySet<string>; onToggle(node: DriveResource, on: boolean): void }) {
  return (
    <ul className="space-y-0.5">
      {nodes.map((node) => {
        const branch = node.is_dir || hasTree(node)
        return (
          <li key={`${branch ? 'd' : 'f'}:${node.id}:${node.name}`}>
            <TreeCheckbox node={node} selected={selected} label={node.name} onToggle={onToggle} />
            {branch ? (
              <div className="ml-5 border-l border-slate-200 pl-2 dark:border-slate-700">
                <Tree nodes={node.dir?.resources ?? []} selected={selected} onToggle={onToggle} />
              </div>
            ) : null}
          </li>
        )
      })}
    </ul>
  )
}

/** One row of the tree: a file, or a folder whose box is mixed when only some of its files are chosen. */
function TreeCheckbox({ node, selected, label, onToggle }: { node: DriveResource; selected: ReadonlySet<string>; label: string; onToggle(node: DriveResource, on: boolean): void }) {
  const locale = useLocale()
  const box = useRef<HTMLInputElement>(null)
  const branch = node.is_dir || hasTree(node)
  const state = branch ? selectionState(node, selected) : selected.has(node.id) ? 'all' : 'none'
  useEffect(() => {
    if (box.current) box.current.indeterminate = state === 'some'
  }, [state])
  return (
    <label className="flex min-h-9 cursor-pointer items-center gap-2.5 rounded-lg px-1.5 text-sm text-slate-800 hover:bg-slate-100 dark:text-slate-100 dark:hover:bg-slate-800">
      <input ref={box} type="checkbox" className="size-4 shrink-0 accent-brand-600" checked={state === 'all'} aria-checked={state === 'some' ? 'mixed' : undefined} onChange={(event) => onToggle(node, event.target.checked)} />
      <FileKindIcon kind={branch ? 'folder' : kindFromName(node.name)} className="size-4 shrink-0" />
      <FileName name={label} className="min-w-0 flex-1" />
      <span className="shrink-0 text-xs text-slate-500 tabular-nums dark:text-slate-400">{formatBytes(bytesOf(node), locale)}</span>
    </label>
  )
}
