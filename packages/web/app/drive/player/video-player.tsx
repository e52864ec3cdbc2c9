import * as DropdownMenu from '@radix-ui/react-dropdown-menu'
import * as Popover from '@radix-ui/react-popover'
import type { DriveFile, DriveSubtitle } from '@cumulus/protocol'
import type Hls from 'hls.js'
import { type KeyboardEvent, type ReactNode, useEffect, useId, useMemo, useRef, useState } from 'react'
import { Link } from 'react-router'
import { Spinner } from '../../components/ui/spinner'
import { menuContentClass, menuItemClass } from '../../components/ui/menu-styles'
import { useLocale, useT } from '../../i18n/use-locale'
import { usePagePath } from '../../navigation/locale-link'
import type { DriveApi } from '../drive-api'
import { useErrorText } from '../use-error-text'
import { detectHlsSupport, levelIndexOf, loadHls } from './hls-support'
import { ExitFullscreenIcon, FullscreenIcon, KeyboardIcon, LockIcon, MutedIcon, PauseIcon, PictureInPictureIcon, PlayIcon, SubtitlesIcon, VolumeIcon } from './player-icons'
import { formatPlayerTime, PlaybackSaver, RESUME_MIN_SECONDS, resumeAtSeconds } from './resume'
import { type KeyTarget, nextPlaybackRate, PLAYBACK_RATES, type PlayerAction, SEEK_LONG_SECONDS, SHORTCUT_HELP, shortcutAction } from './shortcuts'
import { useVideoDetail } from './use-video-detail'
import { type HlsSupport, type QualityChoice, initialQuality, isTranscodePending, qualityOptions, sourceFor, videoSourcesOf } from './video-sources'

/** The controls hide after this long without the pointer moving, while the video plays. */
const CONTROLS_HIDE_MS = 3000
/** How long a shortcut's feedback ("Volume 70%") stays on the picture. */
const OSD_MS = 900
/** How long "Resumed at 12:34" (with its Start over) stays. */
const RESUMED_NOTICE_MS = 8000
/** A source that fails for the network again this soon after fresh links were fetched has really failed. */
const LINK_REFRESH_MIN_INTERVAL_MS = 60_000
/** Where the volume is remembered between videos and visits (as YouTube does; the speed is not). */
export const VOLUME_STORAGE_KEY = 'cumulus-player-volume'

function rememberedVolume(): { volume: number; muted: boolean } | null {
  try {
    const saved = JSON.parse(window.localStorage.getItem(VOLUME_STORAGE_KEY) ?? 'null') as { volume?: unknown; muted?: unknown } | null
    if (!saved || typeof saved.volume !== 'number' || !(saved.volume >= 0 && saved.volume <= 1)) return null
    return { volume: saved.volume, muted: saved.muted === true }
  } catch {
    // Storage blocked, or not ours to read: the default volume.
    return null
  }
}

/** `MediaError.MEDIA_ERR_DECODE`: the bytes arrived but this browser cannot decode them; fresh links would not help. */
const MEDIA_ERR_DECODE = 3
/** How long "HD versions are ready" stays. */
const HD_READY_NOTICE_MS = 6000
/** Where the account page shows the membership card. */
export const MEMBERSHIP_HASH = '#membership'

/** What the browser can do, found out on the page; tests pass their own. */
export interface PlayerCapabilities {
  hls: HlsSupport
  /** Whether the video element can play a file of this MIME type. */
  playsType(mimeType: string): boolean
}

function browserCapabilities(): PlayerCapabilities {
  const probe = document.createElement('video')
  return { hls: detectHlsSupport(probe), playsType: (mimeType) => probe.canPlayType(mimeType) !== '' }
}

export interface VideoPlayerProps {
  api: DriveApi
  file: DriveFile
  /** Take the focus when it appears (the preview opened on this video), so its shortcuts work at once. */
  autoFocus?: boolean
  capabilities?: PlayerCapabilities
}

/**
 * The drive's video player: the Original played as it is, or the HD renditions over HLS (hls.js,
 * loaded when first needed, or the browser's own HLS), with menus for quality (members-only
 * renditions shown locked), speed and subtitles, picture-in-picture, full screen and YouTube's
 * keyboard shortcuts. It resumes where the account stopped watching and saves the position as
 * the video plays. While the HD versions are being made it says so and offers them once ready,
 * without interrupting playback.
 */
export function VideoPlayer({ api, file, autoFocus = false, capabilities }: VideoPlayerProps) {
  const { t } = useT()
  const [detail, refreshDetail] = useVideoDetail(api, file.id)
  const errorText = useErrorText(detail.status === 'error' ? detail.error : null)
  const [caps] = useState(() => capabilities ?? browserCapabilities())

  if (detail.status === 'loading') {
    return (
      <div role="status" className="flex flex-col items-center gap-3 text-white/80">
        <Spinner className="size-8" />
        <span className="text-sm">{t('drive.player.loading')}</span>
      </div>
    )
  }
  if (detail.status === 'error') {
    return (
      <p role="alert" className="max-w-md rounded-xl bg-white/10 px-4 py-3 text-center text-sm">
        {t('drive.preview.failed')}
        {errorText ? <span className="mt-1 block text-white/70">{errorText}</span> : null}
      </p>
    )
  }
  return <Player api={api} file={detail.file} autoFocus={autoFocus} caps={caps} refreshDetail={refreshDetail} />
}

const controlButtonShape =
  'size-10 shrink-0 items-center justify-center rounded-full text-white/90 hover:bg-white/15 hover:text-white focus-visible:outline-2 focus-visible:outline-white data-[state=open]:bg-white/15'
const controlButton = `inline-flex ${controlButtonShape}`
const textButton =
  'inline-flex h-10 shrink-0 items-center justify-center rounded-full px-2.5 text-sm font-semibold tabular-nums text-white/90 hover:bg-white/15 hover:text-white focus-visible:outline-2 focus-visible:outline-white data-[state=open]:bg-white/15'
const pill = 'pointer-events-auto rounded-full bg-black/70 px-3 py-1.5 text-xs font-medium text-white shadow sm:text-sm'
const menuLabelClass = 'px-3 py-1.5 text-xs font-medium text-slate-500 dark:text-slate-400'

const noop = () => undefined

/** `element.matches(selector)`, false where the browser does not know the selector. */
function matches(element: Element, selector: string): boolean {
  try {
    return element.matches(selector)
  } catch {
    return false
  }
}

/** Where a key was pressed, for the shortcuts: its own keys belong to a button or a slider. */
function keyTargetOf(element: HTMLElement): KeyTarget {
  if (element instanceof HTMLInputElement && element.type === 'range') return 'slider'
  if (element.closest('button, a, [role="button"]')) return 'button'
  return 'surface'
}

function Player({ api, file, autoFocus, caps, refreshDetail }: { api: DriveApi; file: DriveFile; autoFocus: boolean; caps: PlayerCapabilities; refreshDetail(): Promise<DriveFile | null> }) {
  const { t } = useT()
  const locale = useLocale()
  const pagePath = usePagePath()
  const videoRef = useRef<HTMLVideoElement>(null)
  const [container, setContainer] = useState<HTMLDivElement | null>(null)

  const sources = useMemo(() => videoSourcesOf(file), [file])
  const options = useMemo(() => qualityOptions(sources, caps.hls), [sources, caps.hls])
  const originalPlaysHere = file.mime_type === '' || caps.playsType(file.mime_type)
  const [choice, setChoice] = useState<QualityChoice | null>(() => initialQuality(options, { originalPlaysHere, renditionIsDefault: sources.renditionIsDefault }))
  const [failed, setFailed] = useState(false)
  const [notice, setNotice] = useState<{ text: string; until: number } | null>(null)
  const selected = choice === null ? null : sourceFor(choice, sources, caps.hls)
  const sourceKey = selected?.key ?? ''
  const height = selected?.source.kind === 'hls' ? selected.source.height : -1

  // Read by the media callbacks, which outlive the render that made them.
  const latest = useRef({ selected, choice, options, sources, height })
  latest.current = { selected, choice, options, sources, height }
  const hlsRef = useRef<Hls | null>(null)
  /** A level chosen by hand, whose first buffered fragment should be shown at once. */
  const nudgeLevelRef = useRef<number | null>(null)
  const [autoHeight, setAutoHeight] = useState<number | null>(null)
  /** Where a new source (another quality) picks up: the old one's position and play state. */
  const restartRef = useRef<{ time: number; play: boolean } | null>(null)
  /** Between a source change and its metadata: positions read now belong to no source. */
  const switchingRef = useRef(true)
  const startedRef = useRef(false)

  const [paused, setPaused] = useState(true)
  const [buffering, setBuffering] = useState(true)
  const [time, setTime] = useState(0)
  const [duration, setDuration] = useState(0)
  const [volume, setVolume] = useState(1)
  const [muted, setMuted] = useState(false)
  const [rate, setRateState] = useState(1)
  const [fullscreen, setFullscreen] = useState(false)
  const [pictureInPicture, setPictureInPicture] = useState(false)
  const [openMenu, setOpenMenu] = useState<string | null>(null)
  const [controlsShown, setControlsShown] = useState(true)
  const hideTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  const controlsRef = useRef<HTMLDivElement>(null)
  const lastPointer = useRef<string>('mouse')
  const [osd, setOsd] = useState<{ text: string; serial: number } | null>(null)
  const [resumedAt, setResumedAt] = useState<number | null>(null)

  // ---- resume and save ----------------------------------------------------------------
  /** The saved position: undefined until read, null when there is none (or it could not be read). */
  const savedRef = useRef<{ positionSeconds: number; durationSeconds: number } | null | undefined>(undefined)
  /** Set once the saved position was applied or passed over: no save may happen before, or it would overwrite it. */
  const resumeDecidedRef = useRef(false)
  const lastPositionRef = useRef<{ time: number; duration: number } | null>(null)
  const endedRef = useRef(false)
  const saver = useMemo(
    () =>
      new PlaybackSaver({
        now: Date.now,
        save: (positionSeconds, durationSeconds, options) => api.savePlayback(file.id, durationSeconds === undefined ? { positionSeconds } : { positionSeconds, durationSeconds }, options),
      }),
    [api, file.id],
  )

  function canSave(): boolean {
    const video = videoRef.current
    return resumeDecidedRef.current && !switchingRef.current && !!video && video.readyState >= 1
  }

  function tryResume() {
    const video = videoRef.current
    if (resumeDecidedRef.current || savedRef.current === undefined || !video || video.readyState < 1 || switchingRef.current) return
    resumeDecidedRef.current = true
    const saved = savedRef.current
    if (!saved) return
    const length = Number.isFinite(video.duration) && video.duration > 0 ? video.duration : saved.durationSeconds
    const at = resumeAtSeconds(saved.positionSeconds, length)
    // The viewer already moved on by themselves: leave them there.
    if (at === null || video.currentTime > RESUME_MIN_SECONDS) return
    video.currentTime = at
    setResumedAt(at)
  }

  useEffect(() => {
    let live = true
    api.playback(file.id).then(
      (playback) => {
        if (!live) return
        savedRef.current = { positionSeconds: playback.position_seconds, durationSeconds: playback.duration_seconds }
        tryResume()
      },
      () => {
        if (!live) return
        savedRef.current = null
        tryResume()
      },
    )
    return () => {
      live = false
    }
  }, [api, file.id])

  // Declared before the source's effect, so on closing it runs first, while the position is there.
  useEffect(() => {
    const saveNow = (keepalive: boolean) => {
      const last = lastPositionRef.current
      if (!resumeDecidedRef.current || endedRef.current || !last) return
      saver.flush(last.time, last.duration, { keepalive })
    }
    // The tab closing or going to the back/forward cache: a request that outlives the page.
    const onPageHide = () => saveNow(true)
    window.addEventListener('pagehide', onPageHide)
    return () => {
      window.removeEventListener('pagehide', onPageHide)
      saveNow(false)
    }
  }, [saver])

  useEffect(() => {
    if (resumedAt === null) return
    const timer = setTimeout(() => setResumedAt(null), RESUMED_NOTICE_MS)
    return () => clearTimeout(timer)
  }, [resumedAt])

  // ---- the source ---------------------------------------------------------------------
  /** Bumped to load the same choice again (with fresh links). */
  const [generation, setGeneration] = useState(0)
  const refreshedAtRef = useRef(0)

  /**
   * The source failed. Its links may have expired (6 hours by default: a video open that long, or
   * paused), or today's plays may have run out since the detail was read (the link then answers
   * `play_limit_reached`): unless the picture itself could not be decoded, the detail is read
   * again, at most once a minute, and the same choice goes on where it was with fresh links (or
   * the player says why it cannot). Otherwise another quality is tried, else it gives up.
   */
  function sourceFailed({ retryable = true }: { retryable?: boolean } = {}) {
    const { choice: current, options: offered } = latest.current
    const playable = offered.filter((option) => !option.locked)
    const video = videoRef.current
    const resumeAt = video && !switchingRef.current ? { time: video.currentTime, play: !video.paused || !startedRef.current } : restartRef.current
    if (retryable && Date.now() - refreshedAtRef.current > LINK_REFRESH_MIN_INTERVAL_MS) {
      refreshedAtRef.current = Date.now()
      restartRef.current = resumeAt
      void refreshDetail().then((fresh) => {
        if (fresh) setGeneration((n) => n + 1)
        else setFailed(true)
      })
      return
    }
    if (current === 'original') {
      // An Original this browser cannot decode (HEVC in an .mkv, say): an HD version can play.
      const fallback = playable.find((option) => option.value !== 'original')
      if (fallback) {
        restartRef.current = resumeAt
        setChoice(fallback.value)
        setNotice({ text: t('drive.player.switchedToHd'), until: Date.now() + HD_READY_NOTICE_MS })
        return
      }
    } else if (playable.some((option) => option.value === 'original')) {
      restartRef.current = resumeAt
      setChoice('original')
      return
    }
    setFailed(true)
  }

  useEffect(() => {
    const video = videoRef.current
    const picked = latest.current.selected
    if (!video || !picked) return
    const { source } = picked
    let live = true
    let hls: Hls | null = null
    switchingRef.current = true
    setBuffering(true)
    // Absolute, so hls.js resolves the playlists' own relative links against the right origin.
    const url = new URL(source.url, window.location.href).href
    if (source.kind === 'file' || caps.hls !== 'mse') {
      video.src = url
    } else {
      loadHls().then(
        (HlsClass) => {
          if (!live) return
          const instance = new HlsClass({ startPosition: restartRef.current?.time ?? -1 })
          hls = instance
          hlsRef.current = instance
          let recoveries = 0
          instance.on(HlsClass.Events.MANIFEST_PARSED, () => {
            const level = levelIndexOf(instance.levels, latest.current.height)
            if (level >= 0) instance.currentLevel = level
          })
          instance.on(HlsClass.Events.LEVEL_SWITCHED, (_event, data) => setAutoHeight(instance.levels[data.level]?.height ?? null))
          instance.on(HlsClass.Events.FRAG_BUFFERED, (_event, data) => {
            // hls.js has replaced the buffer with the chosen level, but the decoder shows the old
            // one's frames up to the next keyframe (4 s away): a seek in place shows the new one now.
            if (data.frag.level !== nudgeLevelRef.current) return
            nudgeLevelRef.current = null
            if (!video.ended) video.currentTime = video.currentTime
          })
          instance.on(HlsClass.Events.ERROR, (_event, data) => {
            if (!data.fatal) return
            recoveries += 1
            if (recoveries <= 2 && data.type === HlsClass.ErrorTypes.MEDIA_ERROR) instance.recoverMediaError()
            else if (recoveries <= 2 && data.type === HlsClass.ErrorTypes.NETWORK_ERROR) instance.startLoad()
            else sourceFailed({ retryable: data.type === HlsClass.ErrorTypes.NETWORK_ERROR })
          })
          instance.attachMedia(video)
          instance.loadSource(url)
        },
        () => live && sourceFailed(),
      )
    }
    return () => {
      live = false
      hls?.destroy()
      hlsRef.current = null
      setAutoHeight(null)
      video.removeAttribute('src')
      video.load()
    }
  }, [sourceKey, caps.hls, generation])

  function chooseQuality(next: QualityChoice) {
    const video = videoRef.current
    const target = sourceFor(next, latest.current.sources, caps.hls)
    if (!video || !target || next === choice) return
    if (target.key === sourceKey) {
      // The same master playlist: only hls.js's level changes; the picture switches in place.
      const hls = hlsRef.current
      if (hls && target.source.kind === 'hls') {
        const level = levelIndexOf(hls.levels, target.source.height)
        nudgeLevelRef.current = level >= 0 ? level : null
        hls.currentLevel = level
      }
    } else if (!switchingRef.current) {
      restartRef.current = { time: video.currentTime, play: !video.paused }
    }
    setChoice(next)
  }

  // ---- subtitles ----------------------------------------------------------------------
  const [subtitles, setSubtitles] = useState<DriveSubtitle[]>([])
  const [subtitleId, setSubtitleId] = useState<string | null>(null)
  const subtitleRef = useRef<{ id: string | null; last: string | null }>({ id: null, last: null })
  subtitleRef.current.id = subtitleId
  useEffect(() => {
    let live = true
    api.subtitles(file.id).then(
      (list) => {
        if (!live) return
        setSubtitles(list.subtitles)
        const chosen = list.subtitles.find((track) => track.is_default)
        if (chosen) setSubtitleId(chosen.id)
      },
      // Subtitles are extra: without them the video still plays.
      noop,
    )
    return () => {
      live = false
    }
  }, [api, file.id])

  function applySubtitles() {
    const video = videoRef.current
    if (!video) return
    for (const element of video.querySelectorAll('track')) {
      const track = (element as HTMLTrackElement).track as TextTrack | undefined
      if (track) track.mode = element.dataset['id'] === subtitleRef.current.id ? 'showing' : 'disabled'
    }
  }
  useEffect(applySubtitles, [subtitleId, subtitles])

  const subtitleLabel = (track: DriveSubtitle, index: number) => track.label || track.language || `#${index + 1}`

  function chooseSubtitle(id: string | null) {
    if (id !== null) subtitleRef.current.last = id
    setSubtitleId(id)
  }

  // ---- transcode notices --------------------------------------------------------------
  const pending = isTranscodePending(sources)
  const wasPending = useRef(pending)
  useEffect(() => {
    if (wasPending.current && !pending && options.some((option) => !option.locked && option.value !== 'original')) {
      setNotice({ text: t('drive.player.hdReady'), until: Date.now() + HD_READY_NOTICE_MS })
    }
    wasPending.current = pending
  }, [pending, options])
  useEffect(() => {
    if (!notice) return
    const timer = setTimeout(() => setNotice(null), Math.max(0, notice.until - Date.now()))
    return () => clearTimeout(timer)
  }, [notice])

  // ---- fullscreen, picture-in-picture, focus --------------------------------------------
  useEffect(() => {
    const onChange = () => setFullscreen(!!container && document.fullscreenElement === container)
    document.addEventListener('fullscreenchange', onChange)
    return () => document.removeEventListener('fullscreenchange', onChange)
  }, [container])

  useEffect(() => {
    if (autoFocus && container) container.focus({ preventScroll: true })
  }, [container])

  useEffect(() => () => clearTimeout(hideTimer.current), [])

  useEffect(() => {
    const video = videoRef.current
    const remembered = rememberedVolume()
    if (!video || !remembered) return
    video.volume = remembered.volume
    video.muted = remembered.muted
    setVolume(remembered.volume)
    setMuted(remembered.muted)
  }, [])

  const canFullscreen = typeof document !== 'undefined' && (document.fullscreenEnabled || 'webkitEnterFullscreen' in HTMLVideoElement.prototype)
  const canPictureInPicture = typeof document !== 'undefined' && document.pictureInPictureEnabled === true

  function toggleFullscreen() {
    const video = videoRef.current
    if (document.fullscreenElement) void document.exitFullscreen().catch(noop)
    else if (container && document.fullscreenEnabled) void container.requestFullscreen().catch(noop)
    // iOS: only the video itself goes full screen, with the system's controls.
    else (video as (HTMLVideoElement & { webkitEnterFullscreen?: () => void }) | null)?.webkitEnterFullscreen?.()
  }

  function togglePictureInPicture() {
    const video = videoRef.current
    if (!video || !canPictureInPicture) return
    if (document.pictureInPictureElement) void document.exitPictureInPicture().catch(noop)
    else void video.requestPictureInPicture().catch(noop)
  }

  // ---- actions ------------------------------------------------------------------------
  const number = (value: number, options: Intl.NumberFormatOptions = {}) => new Intl.NumberFormat(locale, options).format(value)
  const rateText = (value: number) => `${number(value, { maximumFractionDigits: 2 })}×`

  function flash(text: string) {
    setOsd((current) => ({ text, serial: (current?.serial ?? 0) + 1 }))
  }
  useEffect(() => {
    if (!osd) return
    const timer = setTimeout(() => setOsd(null), OSD_MS)
    return () => clearTimeout(timer)
  }, [osd])

  function showControls() {
    setControlsShown(true)
    clearTimeout(hideTimer.current)
    hideTimer.current = setTimeout(() => {
      const bar = controlsRef.current
      // Controls in use stay: the pointer on them, or the keyboard's focus (it must stay visible).
      if (bar && (matches(bar, ':hover') || (bar.contains(document.activeElement) && matches(document.activeElement!, ':focus-visible')))) return
      if (videoRef.current && !videoRef.current.paused) setControlsShown(false)
    }, CONTROLS_HIDE_MS)
  }

  function togglePlay() {
    const video = videoRef.current
    if (!video) return
    if (video.paused || video.ended) void video.play()?.catch(noop)
    else video.pause()
  }

  function seekTo(seconds: number) {
    const video = videoRef.current
    if (!video) return
    const end = Number.isFinite(video.duration) ? video.duration : Math.max(seconds, 0)
    video.currentTime = Math.min(Math.max(seconds, 0), end)
  }

  function setRate(next: number) {
    const video = videoRef.current
    if (!video) return
    // The default rate survives a change of source (another quality); the rate alone would not.
    video.defaultPlaybackRate = next
    video.playbackRate = next
    setRateState(next)
  }

  function run(action: PlayerAction) {
    const video = videoRef.current
    if (!video) return
    switch (action.type) {
      case 'togglePlay':
        return togglePlay()
      case 'seekBy':
        seekTo(video.currentTime + action.seconds)
        return flash(number(action.seconds, { style: 'unit', unit: 'second', unitDisplay: 'short', signDisplay: 'always' }))
      case 'seekToFraction':
        if (Number.isFinite(video.duration)) seekTo(video.duration * action.fraction)
        return
      case 'volumeBy': {
        const next = Math.round(Math.min(1, Math.max(0, video.volume + action.delta)) * 100) / 100
        video.muted = false
        video.volume = next
        return flash(t('drive.player.osd.volume', { percent: number(Math.round(next * 100)) }))
      }
      case 'toggleMute':
        video.muted = !video.muted
        return flash(video.muted ? t('drive.player.osd.muted') : t('drive.player.osd.volume', { percent: number(Math.round(video.volume * 100)) }))
      case 'toggleFullscreen':
        return toggleFullscreen()
      case 'togglePictureInPicture':
        return togglePictureInPicture()
      case 'toggleSubtitles': {
        if (subtitles.length === 0) return
        if (subtitleId !== null) {
          chooseSubtitle(null)
          return flash(t('drive.player.osd.subtitlesOff'))
        }
        const index = Math.max(0, subtitles.findIndex((track) => track.id === (subtitleRef.current.last ?? subtitles.find((s) => s.is_default)?.id)))
        const track = subtitles[index]!
        chooseSubtitle(track.id)
        return flash(t('drive.player.osd.subtitlesOn', { track: subtitleLabel(track, index) }))
      }
      case 'speedBy': {
        const next = nextPlaybackRate(video.playbackRate, action.steps)
        setRate(next)
        return flash(t('drive.player.osd.speed', { rate: rateText(next) }))
      }
      case 'toggleHelp':
        return setOpenMenu((open) => (open === 'help' ? null : 'help'))
    }
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key === 'Escape' || event.key === 'Tab') return
    // A key pressed in the player is the player's: the preview's arrow keys (next and previous
    // file) must not also act on it.
    event.stopPropagation()
    const target = event.target as HTMLElement
    // Menus have their own keys (arrows move between items, letters find them).
    if (target.closest('[role="menu"]')) return
    const action = shortcutAction(event, keyTargetOf(target))
    if (!action) return
    event.preventDefault()
    showControls()
    run(action)
  }

  // ---- media events -------------------------------------------------------------------
  function onLoadedMetadata() {
    const video = videoRef.current!
    switchingRef.current = false
    setDuration(video.duration)
    applySubtitles()
    const restart = restartRef.current
    restartRef.current = null
    if (restart) {
      if (restart.time > 0 && hlsRef.current === null) video.currentTime = restart.time
      if (restart.play) void video.play()?.catch(noop)
    } else if (!startedRef.current) {
      void video.play()?.catch(noop)
    }
    startedRef.current = true
    tryResume()
  }

  function onTimeUpdate() {
    const video = videoRef.current!
    setTime(video.currentTime)
    if (switchingRef.current || video.readyState < 1) return
    lastPositionRef.current = { time: video.currentTime, duration: video.duration }
    if (canSave() && !video.paused && !video.seeking) saver.progress(video.currentTime, video.duration)
  }

  function onPause() {
    const video = videoRef.current!
    setPaused(true)
    setControlsShown(true)
    if (canSave() && !video.ended) saver.flush(video.currentTime, video.duration)
  }

  function onSeeked() {
    const video = videoRef.current!
    if (switchingRef.current || video.readyState < 1) return
    lastPositionRef.current = { time: video.currentTime, duration: video.duration }
    endedRef.current = video.ended
    if (canSave() && !video.ended) saver.flush(video.currentTime, video.duration)
  }

  function onEnded() {
    const video = videoRef.current!
    endedRef.current = true
    setPaused(true)
    setControlsShown(true)
    // Watched to the end: next time it starts over.
    if (resumeDecidedRef.current) saver.finished(video.duration)
  }

  // ---- rendering ----------------------------------------------------------------------
  const membershipPath = `${pagePath('account-home')}${MEMBERSHIP_HASH}`

  // Nothing to play: the plays ran out, or fresh links no longer include the chosen quality.
  if (choice === null || selected === null || failed) {
    return <PlayerBlocked reason={failed ? 'failed' : sources.playLimited || sources.originalLocked ? 'limit' : 'locked'} membershipPath={membershipPath} />
  }

  const qualityName = (value: QualityChoice) => (value === 'auto' ? t('drive.player.quality.auto') : value === 'original' ? t('drive.player.quality.original') : value)
  const autoName = choice === 'auto' && autoHeight ? t('drive.player.quality.autoAt', { height: `${autoHeight}P` }) : qualityName(choice)
  const subtitleIndex = subtitles.findIndex((track) => track.id === subtitleId)
  const shown = controlsShown || paused || openMenu !== null
  const progress = duration > 0 ? Math.min(100, (time / duration) * 100) : 0
  const volumePercent = muted ? 0 : volume * 100

  const menuProps = (name: string) => ({
    open: openMenu === name,
    onOpenChange: (open: boolean) => setOpenMenu(open ? name : null),
  })

  return (
    <div
      ref={setContainer}
      tabIndex={0}
      role="region"
      aria-label={t('drive.player.label', { name: file.name })}
      data-video-player=""
      data-testid="video-player"
      className={`group relative flex h-full w-full items-center justify-center overflow-hidden bg-black outline-none focus-visible:ring-2 focus-visible:ring-white/70 ${shown ? '' : 'cursor-none'}`}
      onKeyDown={onKeyDown}
      onPointerMove={showControls}
      onFocus={showControls}
    >
      <video
        ref={videoRef}
        playsInline
        preload="metadata"
        tabIndex={-1}
        aria-label={file.name}
        data-testid="preview-video"
        data-quality={choice}
        className="h-full w-full object-contain"
        onPointerDown={(event) => {
          lastPointer.current = event.pointerType
        }}
        onClick={() => {
          // A tap on a touch screen first brings the controls back; a click plays or pauses.
          if (lastPointer.current === 'touch' && !shown) return showControls()
          togglePlay()
        }}
        onDoubleClick={(event) => {
          // On a touch screen, as in YouTube's app: a double tap on the left or right third seeks 10 s.
          const box = event.currentTarget.getBoundingClientRect()
          const at = box.width > 0 ? (event.clientX - box.left) / box.width : 0.5
          if (lastPointer.current === 'touch' && at < 1 / 3) run({ type: 'seekBy', seconds: -SEEK_LONG_SECONDS })
          else if (lastPointer.current === 'touch' && at > 2 / 3) run({ type: 'seekBy', seconds: SEEK_LONG_SECONDS })
          else toggleFullscreen()
        }}
        onLoadedMetadata={onLoadedMetadata}
        onDurationChange={() => setDuration(videoRef.current!.duration)}
        onTimeUpdate={onTimeUpdate}
        onPlay={() => {
          endedRef.current = false
          setPaused(false)
          showControls()
        }}
        onPause={onPause}
        onWaiting={() => setBuffering(true)}
        onPlaying={() => setBuffering(false)}
        onCanPlay={() => setBuffering(false)}
        onSeeked={onSeeked}
        onEnded={onEnded}
        onVolumeChange={() => {
          const video = videoRef.current!
          setVolume(video.volume)
          setMuted(video.muted)
          try {
            window.localStorage.setItem(VOLUME_STORAGE_KEY, JSON.stringify({ volume: video.volume, muted: video.muted }))
          } catch {
            // Not remembered; this video still has it.
          }
        }}
        onRateChange={() => setRateState(videoRef.current!.playbackRate)}
        onError={() => {
          // hls.js reports its own errors (and recovers from some).
          const video = videoRef.current
          if (hlsRef.current === null && video?.getAttribute('src')) sourceFailed({ retryable: video.error?.code !== MEDIA_ERR_DECODE })
        }}
      >
        {subtitles.map((track) => (
          <track key={track.id} kind="subtitles" src={track.url} srcLang={track.language || undefined} label={track.label || track.language} data-id={track.id} />
        ))}
      </video>
      <PictureInPictureWatcher video={videoRef} onChange={setPictureInPicture} />

      {buffering && !failed ? (
        <div role="status" className="pointer-events-none absolute inset-0 flex items-center justify-center">
          <Spinner className="size-10 text-white/80" />
          <span className="sr-only">{t('drive.player.buffering')}</span>
        </div>
      ) : null}

      {osd ? (
        <div key={osd.serial} aria-live="polite" className="pointer-events-none absolute top-1/3 left-1/2 -translate-x-1/2 rounded-xl bg-black/70 px-4 py-2 text-sm font-semibold text-white tabular-nums" data-testid="player-osd">
          {osd.text}
        </div>
      ) : null}

      <div className="pointer-events-none absolute inset-x-0 top-0 flex flex-wrap items-start justify-between gap-2 p-2 sm:p-3">
        <div>
          {resumedAt !== null ? (
            <div role="status" className={`${pill} flex items-center gap-2`} data-testid="player-resumed">
              <span>{t('drive.player.resumed', { time: formatPlayerTime(resumedAt) })}</span>
              <button
                type="button"
                className="rounded-full px-2 py-0.5 font-semibold text-sky-300 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-white"
                onClick={() => {
                  setResumedAt(null)
                  seekTo(0)
                  void videoRef.current?.play()?.catch(noop)
                }}
              >
                {t('drive.player.startOver')}
              </button>
            </div>
          ) : null}
        </div>
        <div className="flex flex-col items-end gap-2">
          {pending ? (
            <p role="status" className={pill} data-testid="player-transcode">
              {sources.transcodeStatus === 'running' ? t('drive.player.preparing', { percent: number(sources.transcodePercent) }) : t('drive.player.preparingQueued')}
            </p>
          ) : null}
          {notice ? (
            <p role="status" className={pill} data-testid="player-notice">
              {notice.text}
            </p>
          ) : null}
        </div>
      </div>

      <div
        ref={controlsRef}
        className={`absolute inset-x-0 bottom-0 bg-gradient-to-t from-black/85 via-black/50 to-transparent px-2 pt-10 pb-1 transition-opacity duration-200 sm:px-4 sm:pb-2 ${shown ? 'opacity-100' : 'pointer-events-none opacity-0'}`}
        data-testid="player-controls"
      >
        <div className="flex items-center gap-2 text-xs text-white/90 tabular-nums sm:text-sm">
          <span aria-hidden="true">{formatPlayerTime(time)}</span>
          <input
            type="range"
            min={0}
            max={duration > 0 && Number.isFinite(duration) ? duration : 0}
            step="any"
            value={Math.min(time, duration || 0)}
            aria-label={t('drive.player.seek')}
            aria-valuetext={t('drive.player.time', { current: formatPlayerTime(time), duration: formatPlayerTime(duration) })}
            onChange={(event) => seekTo(Number(event.target.value))}
            className="h-6 min-w-0 flex-1 cursor-pointer accent-sky-400"
            style={{ background: `linear-gradient(to right, rgb(56 189 248) ${progress}%, rgb(255 255 255 / 0.3) ${progress}%) center / 100% 4px no-repeat` }}
            data-testid="player-seek"
          />
          <span aria-hidden="true">{formatPlayerTime(duration)}</span>
        </div>
        <div className="flex items-center gap-0.5 sm:gap-1">
          <button type="button" className={controlButton} aria-label={paused ? t('drive.player.play') : t('drive.player.pause')} onClick={togglePlay} data-testid="player-play">
            {paused ? <PlayIcon /> : <PauseIcon />}
          </button>
          <button
            type="button"
            className={controlButton}
            aria-label={muted || volume === 0 ? t('drive.player.unmute') : t('drive.player.mute')}
            onClick={() => {
              const video = videoRef.current
              if (video) video.muted = !video.muted
            }}
          >
            {muted || volume === 0 ? <MutedIcon /> : <VolumeIcon />}
          </button>
          <input
            type="range"
            min={0}
            max={1}
            step={0.05}
            value={muted ? 0 : volume}
            aria-label={t('drive.player.volume')}
            aria-valuetext={`${number(Math.round(volumePercent))}%`}
            onChange={(event) => {
              const video = videoRef.current
              if (!video) return
              video.volume = Number(event.target.value)
              video.muted = video.volume === 0
            }}
            className="hidden h-6 w-20 cursor-pointer accent-white sm:block"
          />
          <span className="flex-1" />

          {subtitles.length > 0 ? (
            <DropdownMenu.Root {...menuProps('subtitles')}>
              <DropdownMenu.Trigger className={controlButton} aria-label={t('drive.player.subtitles.button', { track: subtitleIndex >= 0 ? subtitleLabel(subtitles[subtitleIndex]!, subtitleIndex) : t('drive.player.subtitles.off') })} data-testid="player-subtitles">
                <SubtitlesIcon className={`size-5 ${subtitleId !== null ? 'text-sky-300' : ''}`} />
              </DropdownMenu.Trigger>
              <DropdownMenu.Portal container={container}>
                <DropdownMenu.Content side="top" align="end" sideOffset={6} className={`${menuContentClass} max-h-72 overflow-y-auto`}>
                  <DropdownMenu.Label className={menuLabelClass}>{t('drive.player.subtitles.label')}</DropdownMenu.Label>
                  <DropdownMenu.RadioGroup value={subtitleId ?? ''} onValueChange={(value) => chooseSubtitle(value === '' ? null : value)}>
                    <RadioItem value="">{t('drive.player.subtitles.off')}</RadioItem>
                    {subtitles.map((track, index) => (
                      <RadioItem key={track.id} value={track.id}>
                        {subtitleLabel(track, index)}
                      </RadioItem>
                    ))}
                  </DropdownMenu.RadioGroup>
                </DropdownMenu.Content>
              </DropdownMenu.Portal>
            </DropdownMenu.Root>
          ) : null}

          <DropdownMenu.Root {...menuProps('quality')}>
            <DropdownMenu.Trigger className={textButton} aria-label={t('drive.player.quality.button', { quality: autoName })} data-testid="player-quality">
              <span aria-hidden="true">
                {qualityName(choice)}
                {choice === 'auto' && autoHeight ? <span className="hidden font-normal text-white/70 sm:inline"> · {autoHeight}P</span> : null}
              </span>
            </DropdownMenu.Trigger>
            <DropdownMenu.Portal container={container}>
              <DropdownMenu.Content side="top" align="end" sideOffset={6} className={menuContentClass}>
                <DropdownMenu.Label className={menuLabelClass}>{t('drive.player.quality.label')}</DropdownMenu.Label>
                <DropdownMenu.RadioGroup value={choice} onValueChange={(value) => chooseQuality(value as QualityChoice)}>
                  {options.map((option) =>
                    option.locked ? (
                      <DropdownMenu.Item key={option.value} asChild className={`${menuItemClass} gap-2`}>
                        <Link to={membershipPath} data-testid="quality-locked">
                          <LockIcon className="absolute left-2 size-3.5" />
                          <span>{qualityName(option.value)}</span>{' '}
                          <span className="ml-auto pl-3 text-xs font-medium text-amber-700 dark:text-amber-300">{t('drive.player.quality.membersOnly')}</span>
                        </Link>
                      </DropdownMenu.Item>
                    ) : (
                      <RadioItem key={option.value} value={option.value}>
                        {option.value === 'auto' && choice === 'auto' && autoHeight ? t('drive.player.quality.autoAt', { height: `${autoHeight}P` }) : qualityName(option.value)}
                      </RadioItem>
                    ),
                  )}
                </DropdownMenu.RadioGroup>
              </DropdownMenu.Content>
            </DropdownMenu.Portal>
          </DropdownMenu.Root>

          <DropdownMenu.Root {...menuProps('speed')}>
            <DropdownMenu.Trigger className={textButton} aria-label={t('drive.player.speed.button', { rate: rateText(rate) })} data-testid="player-speed">
              <span aria-hidden="true">{rateText(rate)}</span>
            </DropdownMenu.Trigger>
            <DropdownMenu.Portal container={container}>
              <DropdownMenu.Content side="top" align="end" sideOffset={6} className={menuContentClass}>
                <DropdownMenu.Label className={menuLabelClass}>{t('drive.player.speed.label')}</DropdownMenu.Label>
                <DropdownMenu.RadioGroup value={String(rate)} onValueChange={(value) => setRate(Number(value))}>
                  {PLAYBACK_RATES.map((value) => (
                    <RadioItem key={value} value={String(value)}>
                      {value === 1 ? t('drive.player.speed.normal') : rateText(value)}
                    </RadioItem>
                  ))}
                </DropdownMenu.RadioGroup>
              </DropdownMenu.Content>
            </DropdownMenu.Portal>
          </DropdownMenu.Root>

          <Popover.Root {...menuProps('help')}>
            <Popover.Trigger className={`${controlButtonShape} hidden sm:inline-flex`} aria-label={t('drive.player.shortcuts.button')} data-testid="player-help">
              <KeyboardIcon />
            </Popover.Trigger>
            <Popover.Portal container={container}>
              <Popover.Content side="top" align="end" sideOffset={6} aria-label={t('drive.player.shortcuts.title')} className={`${menuContentClass} w-80 max-w-[calc(100vw-1rem)] p-3`} data-testid="player-shortcuts">
                <p className="mb-2 text-sm font-semibold">{t('drive.player.shortcuts.title')}</p>
                <dl className="grid grid-cols-[auto_1fr] items-baseline gap-x-3 gap-y-1.5 text-sm">
                  {SHORTCUT_HELP.map((entry) => (
                    <ShortcutRow key={entry.action} keys={entry.keys} or={t('drive.player.shortcuts.or')}>
                      {t(`drive.player.shortcuts.${entry.action}`)}
                    </ShortcutRow>
                  ))}
                </dl>
              </Popover.Content>
            </Popover.Portal>
          </Popover.Root>

          {canPictureInPicture ? (
            <button type="button" className={controlButton} aria-label={pictureInPicture ? t('drive.player.pictureInPicture.exit') : t('drive.player.pictureInPicture.enter')} onClick={togglePictureInPicture}>
              <PictureInPictureIcon />
            </button>
          ) : null}
          {canFullscreen ? (
            <button type="button" className={controlButton} aria-label={fullscreen ? t('drive.player.fullscreen.exit') : t('drive.player.fullscreen.enter')} onClick={toggleFullscreen} data-testid="player-fullscreen">
              {fullscreen ? <ExitFullscreenIcon /> : <FullscreenIcon />}
            </button>
          ) : null}
        </div>
      </div>
    </div>
  )
}

function RadioItem({ value, children }: { value: string; children: ReactNode }) {
  return (
    <DropdownMenu.RadioItem value={value} className={menuItemClass}>
      <DropdownMenu.ItemIndicator className="absolute left-2">✓</DropdownMenu.ItemIndicator>
      {children}
    </DropdownMenu.RadioItem>
  )
}

function ShortcutRow({ keys, or, children }: { keys: readonly string[]; or: string; children: ReactNode }) {
  return (
    <>
      <dt className="flex items-center gap-1 whitespace-nowrap">
        {keys.map((key, index) => (
          <span key={key} className="contents">
            {index > 0 ? <span className="text-xs text-slate-500 dark:text-slate-400">{or}</span> : null}
            <kbd className="rounded border border-slate-300 bg-slate-50 px-1.5 py-0.5 font-mono text-xs dark:border-slate-600 dark:bg-slate-800">{key}</kbd>
          </span>
        ))}
      </dt>
      <dd className="text-slate-700 dark:text-slate-300">{children}</dd>
    </>
  )
}

/** Follows the video in and out of picture-in-picture (React has no props for those events). */
function PictureInPictureWatcher({ video, onChange }: { video: { current: HTMLVideoElement | null }; onChange(active: boolean): void }) {
  useEffect(() => {
    const element = video.current
    if (!element) return
    const enter = () => onChange(true)
    const leave = () => onChange(false)
    element.addEventListener('enterpictureinpicture', enter)
    element.addEventListener('leavepictureinpicture', leave)
    return () => {
      element.removeEventListener('enterpictureinpicture', enter)
      element.removeEventListener('leavepictureinpicture', leave)
    }
  }, [video, onChange])
  return null
}

/**
 * Nothing this account may play: today's free plays are used up (or the video is for members
 * only). Says so, and how to play it: membership.
 */
function PlayerBlocked({ reason, membershipPath }: { reason: 'limit' | 'locked' | 'failed'; membershipPath: string }) {
  const { t } = useT()
  const titleId = useId()
  if (reason === 'failed') {
    return (
      <p role="alert" className="max-w-md rounded-xl bg-white/10 px-4 py-3 text-center text-sm" data-testid="player-failed">
        {t('drive.player.failed')}
      </p>
    )
  }
  return (
    <section aria-labelledby={titleId} className="flex max-w-md flex-col items-center gap-3 rounded-2xl bg-white/10 px-6 py-8 text-center" data-testid="player-limit">
      <LockIcon className="size-10 text-amber-300" />
      <h2 id={titleId} className="text-lg font-semibold">
        {reason === 'limit' ? t('drive.player.limit.title') : t('drive.player.limit.lockedTitle')}
      </h2>
      <p className="text-sm text-white/80">{reason === 'limit' ? t('drive.player.limit.text') : t('drive.player.limit.lockedText')}</p>
      <Link
        to={membershipPath}
        className="mt-2 inline-flex h-11 items-center rounded-xl bg-white px-5 text-sm font-semibold text-slate-900 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
      >
        {t('drive.player.limit.upgrade')}
      </Link>
    </section>
  )
}
