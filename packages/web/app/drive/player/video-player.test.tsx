import type { DriveFile, DriveMedia } from '@cumulus/protocol'
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderPage } from '../../../test/render'
import en from '../../locales/en-US/index'
import { aFile, aMedia, FakeDriveApi } from '../fake-drive-api'
import { PreviewDialog } from '../preview-dialog'
import { type PlayerCapabilities, VideoPlayer, VOLUME_STORAGE_KEY } from './video-player'

const player = en.drive.player
/** hls.js needs Media Source Extensions, which happy-dom has not: the tests play HLS "natively" (the video element's src). */
const NATIVE_HLS: PlayerCapabilities = { hls: 'native', playsType: () => true }


const LOCKED = { need_more_quota: true, vip_types: ['vip'], link: { url: '', token: '', expire: '', type: '' } }
const MASTER = '/drive/v1/media/v1/master.m3u8?s=m'
/** The player sets absolute URLs (hls.js resolves a playlist's links against its URL). */
const at = (path: string) => new URL(path, window.location.href).href

function aVideo(overrides: Partial<DriveFile> = {}): DriveFile {
  return aFile({
    name: 'holiday.mp4',
    mime_type: 'video/mp4',
    file_category: 'VIDEO',
    medias: [aMedia('Original'), aMedia('1080P'), aMedia('720P'), aMedia('480P')],
    params: { transcode_status: 'ready', transcode_progress: '100', hls_url: MASTER },
    ...overrides,
  })
}

const nonMemberVideo = () => aVideo({ medias: [aMedia('Original'), aMedia('720P', LOCKED), aMedia('480P', LOCKED)], params: { transcode_status: 'ready' } })

async function renderPlayer(file: DriveFile, setup: (api: FakeDriveApi) => void = () => {}) {
  const api = new FakeDriveApi([file])
  setup(api)
  renderPage(<VideoPlayer api={api} file={file} autoFocus capabilities={NATIVE_HLS} />)
  const video = (await screen.findByTestId('preview-video')) as HTMLVideoElement
  return { api, video, region: screen.getByRole('region', { name: `Video player: ${file.name}` }) }
}

/** What the browser does once a source's metadata has arrived: readyState 1, a duration, `loadedmetadata`. */
function loadMetadata(video: HTMLVideoElement, durationSeconds: number) {
  Object.defineProperty(video, 'readyState', { configurable: true, get: () => 1 })
  Object.defineProperty(video, 'duration', { configurable: true, get: () => durationSeconds })
  fireEvent.loadedMetadata(video)
}

async function openMenu(trigger: HTMLElement) {
  await userEvent.click(trigger)
  return screen.findByRole('menu')
}

afterEach(() => {
  vi.useRealTimers()
})

describe('the quality menu', () => {
  it('offers Auto, each rendition and the Original to a member, starting on the Original, and switches keeping position and play state', async () => {
    const { video } = await renderPlayer(aVideo())
    expect(video.getAttribute('src')).toBe(at('/drive/v1/content/v1?s=orig'))
    loadMetadata(video, 600)
    await waitFor(() => expect(video.paused).toBe(false))

    const menu = await openMenu(screen.getByRole('button', { name: 'Quality: Original' }))
    const items = within(menu).getAllByRole('menuitemradio')
    expect(items.map((item) => [item.textContent?.replace('✓', ''), item.getAttribute('aria-checked')])).toEqual([
      ['Auto', 'false'],
      ['1080P', 'false'],
      ['720P', 'false'],
      ['480P', 'false'],
      ['Original', 'true'],
    ])

    video.currentTime = 42
    await userEvent.click(within(menu).getByRole('menuitemradio', { name: '480P' }))
    // Natively, a rendition plays its own variant playlist; it picks up where the Original was.
    await waitFor(() => expect(video.getAttribute('src')).toBe(at('/drive/v1/media/v1/480P.m3u8?s=r')))
    const play = vi.spyOn(video, 'play')
    loadMetadata(video, 600)
    expect(video.currentTime).toBe(42)
    expect(play).toHaveBeenCalled()
    expect(screen.getByRole('button', { name: 'Quality: 480P' })).toBeTruthy()

    // Auto is the master playlist.
    await userEvent.click(within(await openMenu(screen.getByRole('button', { name: 'Quality: 480P' }))).getByRole('menuitemradio', { name: 'Auto' }))
    await waitFor(() => expect(video.getAttribute('src')).toBe(at(MASTER)))
  })

  it('keeps a paused video paused when the quality changes', async () => {
    const { video } = await renderPlayer(aVideo())
    loadMetadata(video, 600)
    await waitFor(() => expect(video.paused).toBe(false))
    video.pause()
    video.currentTime = 100
    await userEvent.click(within(await openMenu(screen.getByRole('button', { name: 'Quality: Original' }))).getByRole('menuitemradio', { name: '720P' }))
    await waitFor(() => expect(video.getAttribute('src')).toContain('720P.m3u8'))
    const play = vi.spyOn(video, 'play')
    loadMetadata(video, 600)
    expect(video.currentTime).toBe(100)
    expect(play).not.toHaveBeenCalled()
  })

  it('lists a non-member\'s renditions locked, each a link to membership on the account page', async () => {
    await renderPlayer(nonMemberVideo())
    const menu = await openMenu(screen.getByRole('button', { name: 'Quality: Original' }))
    expect(within(menu).getAllByRole('menuitemradio').map((item) => item.textContent?.replace('✓', ''))).toEqual(['Original'])
    const locked = within(menu).getAllByTestId('quality-locked')
    expect(locked.map((item) => [item.getAttribute('role'), item.textContent, item.getAttribute('href')])).toEqual([
      ['menuitem', `720P ${player.quality.membersOnly}`, '/account/home#membership'],
      ['menuitem', `480P ${player.quality.membersOnly}`, '/account/home#membership'],
    ])
  })

  it('links to membership in the page\'s language', async () => {
    const file = nonMemberVideo()
    renderPage(<VideoPlayer api={new FakeDriveApi([file])} file={file} capabilities={NATIVE_HLS} />, { locale: 'ko' })
    const menu = await openMenu(await screen.findByRole('button', { name: '화질: 원본' }))
    expect(within(menu).getAllByTestId('quality-locked')[0]!.getAttribute('href')).toBe('/ko/account/home#membership')
  })

  it('falls back to an HD version when the browser cannot play the Original, and says so', async () => {
    const { video } = await renderPlayer(aVideo())
    Object.defineProperty(video, 'error', { configurable: true, get: () => ({ code: 3 }) })
    fireEvent.error(video)
    await waitFor(() => expect(video.getAttribute('src')).toBe(at(MASTER)))
    expect(screen.getByTestId('player-notice').textContent).toBe(player.switchedToHd)
    expect(screen.getByRole('button', { name: 'Quality: Auto' })).toBeTruthy()
  })

  it('starts a member on Auto when the server makes an HD version the default', async () => {
    const file = aVideo()
    file.medias = file.medias.map((media) => ({ ...media, is_default: media.media_name === '1080P' }))
    const { video } = await renderPlayer(file)
    expect(video.getAttribute('src')).toBe(at(MASTER))
    expect(screen.getByRole('button', { name: 'Quality: Auto' })).toBeTruthy()
  })

  it('reads the detail again for fresh links when the source stops arriving, and goes on where it was', async () => {
    const file = aVideo()
    const { video, api } = await renderPlayer(file)
    loadMetadata(video, 600)
    await waitFor(() => expect(video.paused).toBe(false))
    video.currentTime = 30
    api.files.set(file.id, { ...file, medias: [aMedia('Original', { link: { url: '/drive/v1/content/v1?s=fresh', token: '', expire: '', type: '' } })] })
    Object.defineProperty(video, 'error', { configurable: true, get: () => ({ code: 2 }) })
    fireEvent.error(video)
    await waitFor(() => expect(video.getAttribute('src')).toBe(at('/drive/v1/content/v1?s=fresh')))
    expect(api.callsOf('get')).toHaveLength(2)
    const play = vi.spyOn(video, 'play')
    loadMetadata(video, 600)
    expect(video.currentTime).toBe(30)
    expect(play).toHaveBeenCalled()
    // Failing again at once is a real failure: no loop of reads.
    fireEvent.error(video)
    expect(await screen.findByTestId('player-failed')).toBeTruthy()
    expect(api.callsOf('get')).toHaveLength(2)
  })

  it('starts on Auto when the Original is of a type the browser does not play', async () => {
    const file = aVideo({ mime_type: 'video/x-matroska', name: 'film.mkv' })
    renderPage(<VideoPlayer api={new FakeDriveApi([file])} file={file} capabilities={{ hls: 'native', playsType: (type) => type === 'video/mp4' }} />)
    const video = (await screen.findByTestId('preview-video')) as HTMLVideoElement
    expect(video.getAttribute('src')).toBe(at(MASTER))
  })
})

describe('the play limit', () => {
  it('shows why nothing plays and how to become a member, not a broken video', async () => {
    const file = aVideo({ medias: [aMedia('Original', LOCKED), aMedia('720P', LOCKED)], params: { transcode_status: 'ready', play_limited: 'true' } })
    renderPage(<VideoPlayer api={new FakeDriveApi([file])} file={file} capabilities={NATIVE_HLS} />)
    const limit = await screen.findByTestId('player-limit')
    expect(within(limit).getByRole('heading', { level: 2 }).textContent).toBe(player.limit.title)
    expect(within(limit).getByRole('link', { name: player.limit.upgrade }).getAttribute('href')).toBe('/account/home#membership')
    expect(screen.queryByTestId('preview-video')).toBeNull()
  })

  it('says the video cannot be played when nothing can, without the limit', async () => {
    const { video } = await renderPlayer(aVideo({ medias: [aMedia('Original')], params: {} }))
    Object.defineProperty(video, 'error', { configurable: true, get: () => ({ code: 3 }) })
    fireEvent.error(video)
    expect((await screen.findByTestId('player-failed')).textContent).toBe(player.failed)
  })

  it('says why when today\'s plays ran out after the detail was read (the link refuses to start)', async () => {
    const file = aVideo({ medias: [aMedia('Original')], params: {} })
    const { video, api } = await renderPlayer(file)
    api.files.set(file.id, { ...file, medias: [aMedia('Original', LOCKED)], params: { play_limited: 'true' } })
    // A refused start looks like an unplayable source to the browser.
    Object.defineProperty(video, 'error', { configurable: true, get: () => ({ code: 4 }) })
    fireEvent.error(video)
    expect(within(await screen.findByTestId('player-limit')).getByRole('heading').textContent).toBe(player.limit.title)
  })
})

describe('resuming', () => {
  it('starts where the account stopped, says so, and starts over on request', async () => {
    const file = aVideo()
    const { video, api } = await renderPlayer(file, (fake) => fake.playbacks.set(file.id, { positionSeconds: 754, durationSeconds: 3600 }))
    // The saved position is read once the player opens; metadata comes after it here.
    await waitFor(() => expect(api.callsOf('playback')).toEqual([[file.id]]))
    await new Promise((resolve) => setTimeout(resolve, 0))
    loadMetadata(video, 3600)
    expect(video.currentTime).toBe(754)
    const resumed = await screen.findByTestId('player-resumed')
    expect(resumed.textContent).toContain('Resumed at 12:34')
    await userEvent.click(within(resumed).getByRole('button', { name: player.startOver }))
    expect(video.currentTime).toBe(0)
    expect(screen.queryByTestId('player-resumed')).toBeNull()
  })

  it('applies a saved position that arrives after the metadata', async () => {
    let release!: (value: unknown) => void
    const { video, api } = await renderPlayer(aVideo(), (fake) => {
      const read = fake.playback.bind(fake)
      fake.playback = async (id) => {
        await new Promise((resolve) => (release = resolve))
        return { ...(await read(id)), position_seconds: 30, duration_seconds: 600 }
      }
    })
    loadMetadata(video, 600)
    expect(video.currentTime).toBe(0)
    await act(async () => release(undefined))
    await waitFor(() => expect(video.currentTime).toBe(30))
    expect(api.callsOf('savePlayback')).toEqual([])
  })

  it('starts at the beginning after a video was watched to its end', async () => {
    const file = aVideo()
    const { video } = await renderPlayer(file, (fake) => fake.playbacks.set(file.id, { positionSeconds: 595, durationSeconds: 600 }))
    await waitFor(() => expect(video.getAttribute('src')).not.toBeNull())
    await new Promise((resolve) => setTimeout(resolve, 0))
    loadMetadata(video, 600)
    expect(video.currentTime).toBe(0)
    expect(screen.queryByTestId('player-resumed')).toBeNull()
  })
})

describe('saving the position', () => {
  it('saves on pause, on a finished seek, 0 at the end, and on closing', async () => {
    const file = aVideo()
    const api = new FakeDriveApi([file])
    const { unmount } = renderPage(<VideoPlayer api={api} file={file} capabilities={NATIVE_HLS} />)
    const video = (await screen.findByTestId('preview-video')) as HTMLVideoElement
    await waitFor(() => expect(api.callsOf('playback')).toHaveLength(1))
    loadMetadata(video, 600)
    await waitFor(() => expect(video.paused).toBe(false))
    const saves = () => api.callsOf('savePlayback').map(([, input, options]) => [(input as { positionSeconds: number }).positionSeconds, (options as { keepalive?: boolean }).keepalive])

    video.currentTime = 61
    fireEvent.timeUpdate(video)
    video.pause()
    await waitFor(() => expect(saves()).toEqual([[61, false]]))
    expect(api.callsOf('savePlayback')[0]![1]).toEqual({ positionSeconds: 61, durationSeconds: 600 })

    video.currentTime = 300
    fireEvent.seeked(video)
    await waitFor(() => expect(saves()).toEqual([[61, false], [300, false]]))

    fireEvent.ended(video)
    await waitFor(() => expect(saves().at(-1)).toEqual([0, false]))
    // Closing after the end does not overwrite the 0.
    const count = saves().length
    video.currentTime = 120
    fireEvent.seeked(video)
    window.dispatchEvent(new Event('pagehide'))
    unmount()
    await waitFor(() => expect(saves().slice(count)).toEqual([[120, false]]))

    expect(api.playbacks.get(file.id)).toEqual({ positionSeconds: 120, durationSeconds: 600 })
  })

  it('saves with keepalive when the page goes away', async () => {
    const file = aVideo()
    const { video, api } = await renderPlayer(file)
    await waitFor(() => expect(api.callsOf('playback')).toHaveLength(1))
    loadMetadata(video, 600)
    video.currentTime = 75
    fireEvent.timeUpdate(video)
    window.dispatchEvent(new Event('pagehide'))
    expect(api.callsOf('savePlayback')).toEqual([[file.id, { positionSeconds: 75, durationSeconds: 600 }, { keepalive: true }]])
  })

  it('does not save before the saved position has been read, so it is never overwritten', async () => {
    const file = aVideo()
    const { video, api } = await renderPlayer(file, (fake) => {
      fake.playback = () => new Promise(() => {})
    })
    loadMetadata(video, 600)
    video.currentTime = 3
    fireEvent.timeUpdate(video)
    video.pause()
    fireEvent.seeked(video)
    window.dispatchEvent(new Event('pagehide'))
    expect(api.callsOf('savePlayback')).toEqual([])
  })

  it('saves every 10 s while playing', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['Date'] })
    const file = aVideo()
    const { video, api } = await renderPlayer(file)
    await waitFor(() => expect(api.callsOf('playback')).toHaveLength(1))
    loadMetadata(video, 600)
    await waitFor(() => expect(video.paused).toBe(false))
    const tick = (seconds: number) => {
      video.currentTime = seconds
      fireEvent.timeUpdate(video)
    }
    tick(1)
    vi.setSystemTime(Date.now() + 9_000)
    tick(10)
    expect(api.callsOf('savePlayback')).toEqual([])
    vi.setSystemTime(Date.now() + 1_000)
    tick(11)
    vi.setSystemTime(Date.now() + 5_000)
    tick(16)
    await waitFor(() => expect(api.callsOf('savePlayback').map(([, input]) => input)).toEqual([{ positionSeconds: 11, durationSeconds: 600 }]))
  })
})

describe('keyboard shortcuts', () => {
  it('play, seek, jump, volume, mute and speed from the keyboard, with feedback', async () => {
    const { video, region } = await renderPlayer(aVideo())
    loadMetadata(video, 200)
    await waitFor(() => expect(document.activeElement).toBe(region))
    await waitFor(() => expect(video.paused).toBe(false))

    await userEvent.keyboard('k')
    expect(video.paused).toBe(true)
    await userEvent.keyboard(' ')
    expect(video.paused).toBe(false)

    video.currentTime = 50
    await userEvent.keyboard('{ArrowRight}')
    expect(video.currentTime).toBe(55)
    await userEvent.keyboard('j')
    expect(video.currentTime).toBe(45)
    await userEvent.keyboard('l')
    expect(video.currentTime).toBe(55)
    await userEvent.keyboard('5')
    expect(video.currentTime).toBe(100)
    await userEvent.keyboard('0')
    expect(video.currentTime).toBe(0)
    await userEvent.keyboard('{ArrowLeft}')
    expect(video.currentTime).toBe(0)

    video.volume = 0.5
    await userEvent.keyboard('{ArrowDown}')
    expect(video.volume).toBe(0.45)
    expect(screen.getByTestId('player-osd').textContent).toBe('Volume 45%')
    await userEvent.keyboard('m')
    expect(video.muted).toBe(true)
    expect(screen.getByTestId('player-osd').textContent).toBe(player.osd.muted)

    await userEvent.keyboard('>')
    expect(video.playbackRate).toBe(1.25)
    expect(screen.getByTestId('player-osd').textContent).toBe('Speed 1.25×')
    await userEvent.keyboard('<<<')
    expect(video.playbackRate).toBe(0.5)
    // The speed survives a change of source.
    expect(video.defaultPlaybackRate).toBe(0.5)
    await waitFor(() => expect(screen.getByRole('button', { name: 'Playback speed: 0.5×' })).toBeTruthy())
  })

  it('remembers the volume for the next video', async () => {
    const { video, region } = await renderPlayer(aVideo())
    region.focus()
    video.volume = 0.5
    await userEvent.keyboard('{ArrowDown}{ArrowDown}')
    // happy-dom sends no volumechange: the browser would.
    fireEvent.volumeChange(video)
    expect(JSON.parse(localStorage.getItem(VOLUME_STORAGE_KEY)!)).toEqual({ volume: 0.4, muted: false })
    document.body.innerHTML = ''
    const next = await renderPlayer(aVideo())
    expect(next.video.volume).toBe(0.4)
    expect(next.video.muted).toBe(false)
  })

  it('a double tap on the left or right of the picture seeks 10 s on a touch screen', async () => {
    const { video } = await renderPlayer(aVideo())
    loadMetadata(video, 200)
    video.getBoundingClientRect = () => ({ left: 0, top: 0, width: 300, height: 200, right: 300, bottom: 200, x: 0, y: 0, toJSON: () => ({}) })
    video.currentTime = 50
    const doubleTap = (clientX: number) => {
      fireEvent.pointerDown(video, { pointerType: 'touch', clientX })
      fireEvent.doubleClick(video, { clientX })
    }
    doubleTap(280)
    expect(video.currentTime).toBe(60)
    doubleTap(20)
    doubleTap(20)
    expect(video.currentTime).toBe(40)
    expect(screen.getByTestId('player-osd').textContent).toMatch(/^-10/)
  })

  it('leaves Space on a button to the button, and browser shortcuts to the browser', async () => {
    const { video } = await renderPlayer(aVideo())
    loadMetadata(video, 200)
    await waitFor(() => expect(video.paused).toBe(false))
    const mute = screen.getByRole('button', { name: player.mute })
    mute.focus()
    await userEvent.keyboard(' ')
    // Space pressed the Mute button; it did not also pause.
    expect(video.muted).toBe(true)
    expect(video.paused).toBe(false)
    video.currentTime = 20
    await userEvent.keyboard('{Control>}l{/Control}')
    expect(video.currentTime).toBe(20)
  })

  it('the arrow keys seek in the player and do not also step to the next file', async () => {
    const file = aVideo()
    const next = aFile({ name: 'photo.png', file_category: 'IMAGE', mime_type: 'image/png' })
    const onIndexChange = vi.fn()
    renderPage(<PreviewDialog api={new FakeDriveApi([file, next])} files={[file, next]} index={0} onIndexChange={onIndexChange} onClose={() => {}} onDownload={() => {}} />)
    const region = await screen.findByRole('region', { name: `Video player: ${file.name}` }, { timeout: 5000 })
    const video = within(region).getByTestId('preview-video') as HTMLVideoElement
    loadMetadata(video, 200)
    await waitFor(() => expect(document.activeElement).toBe(region))
    await userEvent.keyboard('{ArrowRight}')
    expect(video.currentTime).toBe(5)
    expect(onIndexChange).not.toHaveBeenCalled()
    // Outside the player the arrows step through the files as before.
    screen.getByRole('button', { name: en.drive.preview.download }).focus()
    await userEvent.keyboard('{ArrowRight}')
    expect(onIndexChange).toHaveBeenCalledWith(1)
  })

  it('? shows the list of shortcuts', async () => {
    await renderPlayer(aVideo())
    await waitFor(() => expect(document.activeElement?.getAttribute('role')).toBe('region'))
    await userEvent.keyboard('?')
    const help = await screen.findByTestId('player-shortcuts')
    expect(within(help).getByText(player.shortcuts.title)).toBeTruthy()
    expect(within(help).getByText(player.shortcuts.pictureInPicture)).toBeTruthy()
    expect(within(help).getAllByRole('definition')).toHaveLength(11)
  })
})

describe('subtitles', () => {
  const tracks = [
    { id: 's1', label: 'English', language: 'en', source: 'file' as const, url: 'http://127.0.0.1/drive/v1/subtitles/s1.vtt?s=1', is_default: false },
    { id: 's2', label: '', language: 'ko', source: 'embedded' as const, url: 'http://127.0.0.1/drive/v1/subtitles/s2.vtt?s=2', is_default: false },
  ]

  it('adds a track per subtitle, chooses one from the menu and toggles with C', async () => {
    const file = aVideo()
    const { video } = await renderPlayer(file, (fake) => fake.subtitleTracks.set(file.id, tracks))
    const trigger = await screen.findByRole('button', { name: 'Subtitles: Off' })
    const elements = [...video.querySelectorAll('track')]
    expect(elements.map((track) => [track.kind, track.getAttribute('src'), track.srclang, track.label])).toEqual([
      ['subtitles', tracks[0]!.url, 'en', 'English'],
      ['subtitles', tracks[1]!.url, 'ko', 'ko'],
    ])
    // happy-dom hands out a new TextTrack on every read: give each element one that keeps its mode.
    for (const element of elements) Object.defineProperty(element, 'track', { value: { mode: 'disabled' } })
    const modes = () => elements.map((track) => track.track.mode)

    const menu = await openMenu(trigger)
    expect(within(menu).getAllByRole('menuitemradio').map((item) => item.textContent?.replace('✓', ''))).toEqual(['Off', 'English', 'ko'])
    await userEvent.click(within(menu).getByRole('menuitemradio', { name: 'ko' }))
    await waitFor(() => expect(modes()).toEqual(['disabled', 'showing']))
    expect(screen.getByRole('button', { name: 'Subtitles: ko' })).toBeTruthy()

    screen.getByTestId('video-player').focus()
    await userEvent.keyboard('c')
    await waitFor(() => expect(modes()).toEqual(['disabled', 'disabled']))
    expect(screen.getByTestId('player-osd').textContent).toBe(player.osd.subtitlesOff)
    await userEvent.keyboard('c')
    await waitFor(() => expect(modes()).toEqual(['disabled', 'showing']))
  })

  it('shows the default track from the start, and no menu for a video without subtitles', async () => {
    const file = aVideo()
    await renderPlayer(file, (fake) => fake.subtitleTracks.set(file.id, [tracks[0]!, { ...tracks[1]!, is_default: true }]))
    expect(await screen.findByRole('button', { name: 'Subtitles: ko' })).toBeTruthy()

    document.body.innerHTML = ''
    await renderPlayer(aVideo())
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(screen.queryByTestId('player-subtitles')).toBeNull()
  })
})

describe('while the HD versions are made', () => {
  it('says how far along they are, and offers them once ready without touching what plays', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    const file = aVideo({ medias: [aMedia('Original')], params: { transcode_status: 'running', transcode_progress: '42' } })
    const { video, api } = await renderPlayer(file)
    expect((await screen.findByTestId('player-transcode')).textContent).toBe('Preparing HD versions… 42%')
    loadMetadata(video, 600)
    video.currentTime = 12

    api.files.set(file.id, { ...file, params: { transcode_status: 'running', transcode_progress: '80' } })
    await act(() => vi.advanceTimersByTimeAsync(4000))
    await waitFor(() => expect(screen.getByTestId('player-transcode').textContent).toBe('Preparing HD versions… 80%'))

    api.files.set(file.id, aVideo({ id: file.id }))
    await act(() => vi.advanceTimersByTimeAsync(4000))
    await waitFor(() => expect(screen.queryByTestId('player-transcode')).toBeNull())
    expect(screen.getByTestId('player-notice').textContent).toBe(player.hdReady)
    expect(video.getAttribute('src')).toBe(at('/drive/v1/content/v1?s=orig'))
    expect(video.currentTime).toBe(12)
    const menu = await openMenu(screen.getByRole('button', { name: 'Quality: Original' }))
    expect(within(menu).getAllByRole('menuitemradio').map((item) => item.textContent?.replace('✓', ''))).toEqual(['Auto', '1080P', '720P', '480P', 'Original'])

    // Ready: the detail is not read again.
    const reads = api.callsOf('get').length
    await act(() => vi.advanceTimersByTimeAsync(12_000))
    expect(api.callsOf('get')).toHaveLength(reads)
  })
})
